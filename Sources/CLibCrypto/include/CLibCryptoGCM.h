#ifndef C_LIB_CRYPTO_GCM_H
#define C_LIB_CRYPTO_GCM_H

#include <stddef.h>
#include <stdint.h>

/// Opens AES-256-GCM: decrypts `length` bytes of `ciphertext` under the 32-byte `key` and 12-byte `nonce`,
/// authenticating `aad` and the 16-byte `tag`, into `plaintext` (`length` bytes; it may not overlap the
/// ciphertext). Returns 1 when the tag is valid; otherwise 0, with `plaintext` cleared. The cipher context,
/// which holds the key schedule, is cleared and freed before returning, and the thread's OpenSSL error queue
/// is left empty.
int coffer_aes256gcm_open(const uint8_t *key, const uint8_t *nonce,
                          const uint8_t *aad, size_t aad_length,
                          const uint8_t *ciphertext, size_t length, const uint8_t *tag,
                          uint8_t *plaintext);

#endif
