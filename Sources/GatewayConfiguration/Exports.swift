// The gateway as one import for what assembles or tests it whole (the executable, the API
// tests): the core, push, the HTTP controllers and metrics come with the configuration.
@_exported import GatewayCore
@_exported import GatewayHTTP
@_exported import GatewayPush
@_exported import Metrics
