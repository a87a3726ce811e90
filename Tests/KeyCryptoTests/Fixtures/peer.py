"""An independent peer for KeyCrypto's interop tests, on Debian's python3-cryptography.

Each command reads hex arguments and prints hex (or "ok"/"bad"). Apple's ECIES is written out here from
its description (ephemeral X9.63 key || AES-GCM ciphertext || tag; X9.63 KDF over the ECDH secret with the
ephemeral key as shared info; 16-byte key on P-256; a zero IV, or the 16 KDF bytes after the key).
"""
import sys
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF


def curve_public(data):
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), data)


def curve_private(scalar):
    return ec.derive_private_key(int.from_bytes(scalar, "big"), ec.SECP256R1())


def x963(secret, info, length):
    return X963KDF(algorithm=hashes.SHA256(), length=length, sharedinfo=info).derive(secret)


def session(secret, ephemeral, variable_iv):
    if variable_iv:
        derived = x963(secret, ephemeral, 32)
        return derived[:16], derived[16:]
    return x963(secret, ephemeral, 16), bytes(16)


def main(command, *args):
    data = [bytes.fromhex(a) for a in args]
    if command == "ecdsa-sign":
        return curve_private(data[0]).sign(data[1], ec.ECDSA(hashes.SHA256())).hex()
    if command == "ecdsa-verify":
        try:
            curve_public(data[0]).verify(data[2], data[1], ec.ECDSA(hashes.SHA256()))
            return "ok"
        except InvalidSignature:
            return "bad"
    if command == "ecdh":
        return curve_private(data[0]).exchange(ec.ECDH(), curve_public(data[1])).hex()
    if command == "ecies-encrypt":
        ephemeral = ec.generate_private_key(ec.SECP256R1())
        encoded = ephemeral.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        key, iv = session(ephemeral.exchange(ec.ECDH(), curve_public(data[0])), encoded, data[2] == b"\x01")
        return (encoded + AESGCM(key).encrypt(iv, data[1], None)).hex()
    if command == "ecies-decrypt":
        packet = data[1]
        ephemeral = packet[:65]
        key, iv = session(curve_private(data[0]).exchange(ec.ECDH(), curve_public(ephemeral)), ephemeral, data[2] == b"\x01")
        return AESGCM(key).decrypt(iv, packet[65:], None).hex()
    if command == "rsa-oaep-encrypt":
        public = serialization.load_der_public_key(data[0])
        algorithm = hashes.SHA256() if data[2] == b"\x02" else hashes.SHA1()
        return public.encrypt(data[1], padding.OAEP(padding.MGF1(algorithm), algorithm, None)).hex()
    if command == "rsa-oaep-decrypt":
        private = serialization.load_der_private_key(data[0], None)
        algorithm = hashes.SHA256() if data[2] == b"\x02" else hashes.SHA1()
        return private.decrypt(data[1], padding.OAEP(padding.MGF1(algorithm), algorithm, None)).hex()
    if command == "rsa-pss-sign":
        private = serialization.load_der_private_key(data[0], None)
        return private.sign(data[1], padding.PSS(padding.MGF1(hashes.SHA256()), 32), hashes.SHA256()).hex()
    if command == "rsa-numbers":
        numbers = serialization.load_der_private_key(data[0], None).private_numbers()
        values = [numbers.public_numbers.n, numbers.public_numbers.e, numbers.d, numbers.p, numbers.q, numbers.iqmp]
        return " ".join(format(value, "x").zfill(len(format(value, "x")) + len(format(value, "x")) % 2) for value in values)
    raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    print(main(*sys.argv[1:]))
