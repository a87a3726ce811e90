#ifndef C_LIB_CRYPTO_RSA_H
#define C_LIB_CRYPTO_RSA_H

#include <stddef.h>
#include <stdint.h>

/// An RSA key held by OpenSSL's libcrypto: Apple's RSA (any modulus from 512 bits, raw operations, OAEP with
/// every SHA-2), which swift-crypto does not cover. Never changed once made, so threads may share it; each
/// operation makes its own context. Freed (and its numbers cleared) by coffer_rsa_free.
typedef struct coffer_rsa_key coffer_rsa_key;

/// The paddings of coffer_rsa_sign, coffer_rsa_verify, coffer_rsa_encrypt and coffer_rsa_decrypt.
typedef enum {
    /// None: the raw RSA operation on a block as long as the modulus (kSecKeyAlgorithmRSA…Raw).
    COFFER_RSA_NO_PADDING = 0,
    /// PKCS#1 v1.5 (type 1 for signatures, with a DigestInfo when a digest is named; type 2 for encryption).
    COFFER_RSA_PKCS1 = 1,
    /// PSS, MGF1 with the digest's hash, a salt as long as the digest (signatures only).
    COFFER_RSA_PSS = 2,
    /// OAEP, MGF1 and the label hash both the named digest, empty label (encryption only).
    COFFER_RSA_OAEP = 3,
} coffer_rsa_padding;

/// What the functions below report besides lengths.
#define COFFER_RSA_OK 0
/// The input does not fit (too long for the padding, not below the modulus) or does not decrypt or verify.
#define COFFER_RSA_BAD_INPUT 1
/// Any other failure (memory, an unknown digest name, an output buffer too small).
#define COFFER_RSA_FAILED 2

/// A new key with a `bits`-bit modulus and exponent 65537; NULL when `bits` is under 512 or past 16384.
coffer_rsa_key *coffer_rsa_generate(int bits);
/// The private key in `der`, a PKCS#1 RSAPrivateKey; NULL when it is not one or its numbers do not agree.
coffer_rsa_key *coffer_rsa_private_from_pkcs1(const uint8_t *der, size_t length);
/// The private key in `der`, a PKCS#8 PrivateKeyInfo holding an RSA key; NULL otherwise or when its numbers do
/// not agree.
coffer_rsa_key *coffer_rsa_private_from_pkcs8(const uint8_t *der, size_t length);
/// The key of the big-endian numbers `n`, `e` (the public key, when `d` is NULL) and `d`, `p`, `q` and
/// `coefficient` (q⁻¹ mod p, checked; the other CRT values are derived): the form SSH keeps keys in. NULL when
/// the numbers do not make a key, or a private key's do not agree.
coffer_rsa_key *coffer_rsa_from_components(const uint8_t *n, size_t n_length, const uint8_t *e, size_t e_length,
                                           const uint8_t *d, size_t d_length, const uint8_t *p, size_t p_length,
                                           const uint8_t *q, size_t q_length, const uint8_t *coefficient,
                                           size_t coefficient_length);
/// The public key in `der`, a PKCS#1 RSAPublicKey or an X.509 SubjectPublicKeyInfo; NULL otherwise.
coffer_rsa_key *coffer_rsa_public_from_der(const uint8_t *der, size_t length);
/// The public half of `key` (a new key); NULL when memory runs out.
coffer_rsa_key *coffer_rsa_public_of(const coffer_rsa_key *key);
/// Frees `key`, clearing its numbers (NULL is allowed).
void coffer_rsa_free(coffer_rsa_key *key);

/// The modulus's length in bits.
int coffer_rsa_bits(const coffer_rsa_key *key);
/// Whether `key` holds the private numbers.
int coffer_rsa_is_private(const coffer_rsa_key *key);

/// Writes the PKCS#1 RSAPrivateKey (`private_key` non-zero) or RSAPublicKey DER of `key` into `output` of
/// `capacity` bytes; returns its length, or -1 (the private form of a public key, a buffer too small). With
/// `output` NULL, returns the length needed.
long coffer_rsa_pkcs1(const coffer_rsa_key *key, int private_key, uint8_t *output, size_t capacity);
/// Writes the modulus, big-endian, left-padded to the modulus's byte length, into `output` of `capacity`
/// bytes; returns that length or -1.
long coffer_rsa_modulus(const coffer_rsa_key *key, uint8_t *output, size_t capacity);

/// Writes the public exponent, big-endian without leading zeros, into `output` of `capacity` bytes; returns its
/// length or -1.
long coffer_rsa_public_exponent(const coffer_rsa_key *key, uint8_t *output, size_t capacity);
/// Writes the X.509 SubjectPublicKeyInfo DER of `key`'s public half into `output` of `capacity` bytes; returns
/// its length, or -1 (a buffer too small). With `output` NULL, returns the length needed.
long coffer_rsa_subject_public_key_info(const coffer_rsa_key *key, uint8_t *output, size_t capacity);

/// Signs `input` with the private `key`: with COFFER_RSA_NO_PADDING `input` is a block as long as the modulus
/// and below it; with COFFER_RSA_PKCS1 and `digest` NULL, `input` is padded with no DigestInfo; otherwise
/// `input` is a digest of `digest` ("SHA1", "SHA224", "SHA256", "SHA384", "SHA512"). `signature` holds the
/// modulus's byte length; `*signature_length` is set.
int coffer_rsa_sign(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                    const uint8_t *input, size_t input_length, uint8_t *signature, size_t *signature_length);
/// Whether `signature` (as long as the modulus) signs `input` under the rules of coffer_rsa_sign:
/// COFFER_RSA_OK when it does, COFFER_RSA_BAD_INPUT when it does not.
int coffer_rsa_verify(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                      const uint8_t *input, size_t input_length, const uint8_t *signature, size_t signature_length);
/// Encrypts `input` with `key`'s public half (`digest` names OAEP's hash); `output` holds the modulus's byte
/// length.
int coffer_rsa_encrypt(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                       const uint8_t *input, size_t input_length, uint8_t *output, size_t *output_length);
/// Decrypts `input` (as long as the modulus) with the private `key`; `output` holds the modulus's byte length.
int coffer_rsa_decrypt(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                       const uint8_t *input, size_t input_length, uint8_t *output, size_t *output_length);

#endif
