import Foundation
import KeyCrypto
import Testing

/// RSA keys from their numbers, as SSH carries them (RFC 4253 §6.6, draft-miller-ssh-agent §4.2.5): the same
/// key libcrypto and Python's `cryptography` hold, the CRT values derived, numbers that disagree refused.
@Suite struct RSANumbersTests {
    @Test func aKeyFromItsNumbersIsTheSameKey() throws {
        let key = try AsymmetricKey.generate(type: .rsa, sizeInBits: 2048)
        let numbers = try InteropPeer.python("rsa-numbers", key.externalRepresentation()).split(separator: " ").map { Data(hexString: String($0)) }
        try #require(numbers.count == 6)
        let (n, e, d, p, q, iqmp) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])

        let rebuilt = try AsymmetricKey(rsaModulus: n, publicExponent: e, privateExponent: d, primeP: p, primeQ: q, coefficient: iqmp)
        #expect(rebuilt == key)
        #expect(rebuilt.externalRepresentation() == key.externalRepresentation())  // dP, dQ derived as the generator made them
        let publicKey = try AsymmetricKey(rsaModulus: n, publicExponent: e)
        #expect(publicKey == key.publicKey)

        // SSH's mpints may carry a leading zero byte; the numbers are the same.
        #expect(try AsymmetricKey(rsaModulus: Data([0]) + n, publicExponent: e) == key.publicKey)

        let message = Data("session identifier".utf8)
        let signature = try rebuilt.signature(for: message, algorithm: .rsaSignatureMessagePKCS1v15SHA256)
        try publicKey.verifySignature(signature, for: message, algorithm: .rsaSignatureMessagePKCS1v15SHA256)
    }

    @Test func numbersThatDisagreeAreRefused() throws {
        let key = try AsymmetricKey.generate(type: .rsa, sizeInBits: 2048)
        let numbers = try InteropPeer.python("rsa-numbers", key.externalRepresentation()).split(separator: " ").map { Data(hexString: String($0)) }
        try #require(numbers.count == 6)
        let (n, e, d, p, q, iqmp) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        var wrongD = d
        wrongD[wrongD.count - 1] ^= 0x02
        var wrongCoefficient = iqmp
        wrongCoefficient[wrongCoefficient.count - 1] ^= 0x01
        let attempts: [(Data, Data, Data, Data)] = [
            (wrongD, p, q, iqmp),  // d is no inverse of e
            (d, q, p, iqmp),  // the primes swapped: iqmp is no longer q⁻¹ mod p
            (d, p, q, wrongCoefficient),
            (d, p, p, iqmp),  // n ≠ p·q
            (Data(), p, q, iqmp),
        ]
        for (privateExponent, primeP, primeQ, coefficient) in attempts {
            let refused = #expect(throws: KeyCryptoError.self) {
                try AsymmetricKey(
                    rsaModulus: n, publicExponent: e, privateExponent: privateExponent, primeP: primeP, primeQ: primeQ,
                    coefficient: coefficient)
            }
            #expect(refused?.status == KeyCryptoError.Status.param)
        }
        #expect(throws: KeyCryptoError.self) { try AsymmetricKey(rsaModulus: Data(), publicExponent: e) }
        #expect(throws: KeyCryptoError.self) { try AsymmetricKey(rsaModulus: n, publicExponent: Data([2])) }  // even exponent
    }
}
