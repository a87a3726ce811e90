import Coffer
import Crypto
import Foundation
import KeychainModel
import ProtectedFileFormat

/// Protected files' throughput next to swift-crypto's AES-GCM on the same 64 KiB pieces of the same buffer:
/// the format alone in memory (sealing and opening every chunk with its index and final flag, into one output
/// buffer), and whole files through `ProtectedFile` (the keychain's wrap service, the header, the chunks and
/// the file I/O, on tmpfs so the disk does not count).
enum FileProtectionBenchmark {
    struct Row {
        let operation: String
        let bytesPerSecond: [Double]
        var median: Double { bytesPerSecond.sorted()[bytesPerSecond.count / 2] }
        var minimum: Double { bytesPerSecond.min() ?? 0 }
        var maximum: Double { bytesPerSecond.max() ?? 0 }
    }

    static func run(size: Int, rounds: Int, in folder: URL) throws -> [Row] {
        let chunk = ChunkLayout.chunkSize
        let content = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 11)) })
        let key = SymmetricKey(size: .bits256)
        let aad = Data(count: 9)
        let count = (size + chunk - 1) / chunk

        func measure(_ name: String, _ body: () throws -> Void) rethrows -> Row {
            try body()
            var rates: [Double] = []
            for _ in 0..<rounds {
                let elapsed = try ContinuousClock().measure(body)
                rates.append(Double(size) / elapsed.seconds)
            }
            return Row(operation: name, bytesPerSecond: rates)
        }

        var sealedByCrypto = Data()
        let cryptoSeal = try measure("swift-crypto AES.GCM.seal, 64 KiB pieces") {
            var output = Data(capacity: size + count * ChunkLayout.overhead)
            try content.withUnsafeBytes { bytes in
                for index in 0..<count {
                    let piece = UnsafeRawBufferPointer(rebasing: bytes[(index * chunk)..<min(size, (index + 1) * chunk)])
                    let box = try AES.GCM.seal(piece, using: key, nonce: AES.GCM.Nonce(), authenticating: aad)
                    output.append(contentsOf: box.nonce)
                    output.append(box.ciphertext)
                    output.append(box.tag)
                }
            }
            sealedByCrypto = output
        }
        let cryptoOpen = try measure("swift-crypto AES.GCM.open, 64 KiB pieces") {
            var output = Data(capacity: size)
            try sealedByCrypto.withUnsafeBytes { bytes in
                for index in 0..<count {
                    let start = index * (chunk + ChunkLayout.overhead)
                    let end = min(bytes.count, start + chunk + ChunkLayout.overhead)
                    let box = try AES.GCM.SealedBox(
                        nonce: AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + 12)])),
                        ciphertext: UnsafeRawBufferPointer(rebasing: bytes[(start + 12)..<(end - 16)]),
                        tag: UnsafeRawBufferPointer(rebasing: bytes[(end - 16)..<end]))
                    output.append(try AES.GCM.open(box, using: key, authenticating: aad))
                }
            }
        }

        var sealed = Data()
        let formatSeal = measure("protected file format: seal every chunk (index and final flag bound)") {
            var output = Data(capacity: size + count * ChunkLayout.overhead)
            content.withUnsafeBytes { bytes in
                for index in 0..<count {
                    let piece = UnsafeRawBufferPointer(rebasing: bytes[(index * chunk)..<min(size, (index + 1) * chunk)])
                    ChunkCipher.seal(piece, index: index, isFinal: index == count - 1, key: key, into: &output)
                }
            }
            sealed = output
        }
        let formatOpen = try measure("protected file format: open every chunk") {
            var output = Data(capacity: size)
            try sealed.withUnsafeBytes { bytes in
                for index in 0..<count {
                    let start = index * ChunkLayout.storedChunkSize
                    let end = min(bytes.count, start + ChunkLayout.storedChunkSize)
                    output.append(
                        try ChunkCipher.open(
                            UnsafeRawBufferPointer(rebasing: bytes[start..<end]), index: index, isFinal: index == count - 1, key: key))
                }
            }
        }

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keychain = Keychain(folder: folder.appendingPathComponent("keychain"))
        let url = folder.appendingPathComponent("protected")
        let fileWrite = try measure("ProtectedFile.write (embedded keychain, tmpfs)") {
            try ProtectedFile.write(content, to: url, protection: .complete, keychain: keychain)
        }
        let fileRead = try measure("ProtectedFile.read (embedded keychain, tmpfs)") {
            _ = try ProtectedFile.read(contentsOf: url, keychain: keychain)
        }
        try? FileManager.default.removeItem(at: folder)
        return [cryptoSeal, formatSeal, fileWrite, cryptoOpen, formatOpen, fileRead]
    }

    /// The report: rows in GiB/s, and each against swift-crypto's rate for the same direction.
    static func report(_ rows: [Row], size: Int) -> String {
        func rate(_ value: Double) -> String { String(format: "%.2f GiB/s", value / Double(1 << 30)) }
        var text = "\n### Protected files: throughput for \(size >> 20) MiB, 64 KiB chunks (AES-256-GCM)\n\n"
        text += "| operation | median | min | max | vs swift-crypto |\n| --- | --- | --- | --- | --- |\n"
        for (index, row) in rows.enumerated() {
            let baseline = rows[index < 3 ? 0 : 3].median
            text +=
                "| \(row.operation) | \(rate(row.median)) | \(rate(row.minimum)) | \(rate(row.maximum)) | \(String(format: "%.0f%%", row.median / baseline * 100)) |\n"
        }
        let worst = min(rows[2].median / rows[0].median, rows[5].median / rows[3].median)
        text += "\nGoal: file encryption and decryption at least 80% of swift-crypto's AES-GCM on the same buffer sizes: "
        text += "whole files through the keychain measured \(String(format: "%.0f%%", worst * 100)) at worst.\n"
        return text
    }
}
