import CommandLineSupport
import Foundation
import GatewayConfiguration
import IssueCatalog

/// Reads and writes the `catalog/` folder on disk; `CatalogFolder` does the parsing.
enum CatalogFiles {
    /// `products.json` and `publications/*.json` of `folder`, as `CatalogFolder.decode` wants them.
    /// Other files (README.md) are left alone; oversized files are refused before reading.
    static func read(_ folder: String) throws(CLIError) -> [String: Data] {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .failure("\(folder) is not a folder")
        }
        var names: [String] = []
        if manager.fileExists(atPath: join(folder, CatalogFolder.productsFile)) { names.append(CatalogFolder.productsFile) }
        let publications = join(folder, CatalogFolder.publicationsFolder)
        if let entries = try? manager.contentsOfDirectory(atPath: publications) {
            names += entries.filter { $0.hasSuffix(".json") }.map { "\(CatalogFolder.publicationsFolder)/\($0)" }
        }
        guard names.count <= CatalogFolder.maxFiles else { throw .failure("\(folder) holds more than \(CatalogFolder.maxFiles) files") }
        var files: [String: Data] = [:]
        for name in names {
            let path = join(folder, name)
            let size = (try? manager.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard size <= CatalogFolder.maxFileBytes else {
                throw .failure("\(name): is larger than \(CatalogFolder.maxFileBytes) bytes")
            }
            guard let data = manager.contents(atPath: path) else { throw .failure("cannot read \(path)") }
            files[name] = data
        }
        return files
    }

    /// Writes `files` under `folder`; publication files of publications no longer in the catalog
    /// are removed, so the folder then holds exactly the exported catalog.
    static func write(_ files: [String: Data], to folder: String) throws(CLIError) {
        let manager = FileManager.default
        let publications = join(folder, CatalogFolder.publicationsFolder)
        do {
            try manager.createDirectory(atPath: publications, withIntermediateDirectories: true)
            for entry in try manager.contentsOfDirectory(atPath: publications)
            where entry.hasSuffix(".json") && files["\(CatalogFolder.publicationsFolder)/\(entry)"] == nil {
                try manager.removeItem(atPath: join(publications, entry))
            }
            for (name, data) in files { try data.write(to: URL(fileURLWithPath: join(folder, name)), options: .atomic) }
        } catch {
            throw .failure("cannot write \(folder): \(error.localizedDescription)")
        }
    }

    private static func join(_ folder: String, _ name: String) -> String {
        URL(fileURLWithPath: folder).appendingPathComponent(name).path
    }
}
