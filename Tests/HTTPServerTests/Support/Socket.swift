import CSystem

enum IssueGatewayTestsSocket {
    @discardableResult
    static func setReceiveTimeout(_ fd: Int32, milliseconds: Int32) -> Int32 {
        csystem_set_receive_timeout_ms(fd, milliseconds)
    }
}
