#ifndef C_LIB_CRYPTO_H
#define C_LIB_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "CLibCryptoAEAD.h"
#include "CLibCryptoHMAC.h"
#include "CLibCryptoRSA.h"

// What `coffer_libcrypto_decrypt` reports.
/// Decrypted; `*output_length` bytes were written.
#define COFFER_LIBCRYPTO_OK 0
/// The key, IV or ciphertext did not decrypt (bad padding, or a ciphertext that is no whole number of blocks).
#define COFFER_LIBCRYPTO_BAD_DECRYPT 1
/// libcrypto does not provide the cipher here (the legacy provider could not be loaded, or the name is unknown).
#define COFFER_LIBCRYPTO_UNAVAILABLE 2
/// Any other failure: a key or IV of the wrong length, an allocation that failed.
#define COFFER_LIBCRYPTO_FAILED 3

/// Decrypts `input` with OpenSSL's cipher `cipher_name` (an EVP name such as "DES-EDE3-CBC" or "RC2-40-CBC"),
/// `key` and `iv`, removing PKCS#7 padding for block ciphers. When `legacy` is non-zero, the cipher is fetched
/// from a library context of its own with OpenSSL's legacy provider loaded (RC2, RC4), freed before returning;
/// no process-wide state is changed. `output` must hold `input_length + 32` bytes. Every context is cleared
/// before it is freed, and the thread's OpenSSL error queue is left empty.
int coffer_libcrypto_decrypt(const char *cipher_name, int legacy,
                             const uint8_t *key, size_t key_length,
                             const uint8_t *iv, size_t iv_length,
                             const uint8_t *input, size_t input_length,
                             uint8_t *output, size_t *output_length);

#endif
