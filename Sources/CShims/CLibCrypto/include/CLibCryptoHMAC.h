#ifndef C_LIB_CRYPTO_HMAC_H
#define C_LIB_CRYPTO_HMAC_H

#include <stddef.h>
#include <stdint.h>

/// An HMAC-SHA256 key made ready once: the hash states after the key's inner and outer pads (and, for the
/// inner one, a fixed prefix) have been absorbed. Each MAC then starts from copies of these states, so
/// neither the key schedule nor the prefix is hashed again, and nothing is allocated per MAC.
typedef struct coffer_hmac_sha256_start coffer_hmac_sha256_start;

/// The start of HMAC-SHA256 under `key` with `prefix` already absorbed into the inner hash; NULL when memory
/// runs out. Free it with `coffer_hmac_sha256_start_free`.
coffer_hmac_sha256_start *coffer_hmac_sha256_start_new(const uint8_t *key, size_t key_length,
                                                       const uint8_t *prefix, size_t prefix_length);

/// Clears and frees a start made by `coffer_hmac_sha256_start_new` (NULL is allowed).
void coffer_hmac_sha256_start_free(coffer_hmac_sha256_start *start);

/// HMAC-SHA256(key, prefix ‖ message) into `mac` (32 bytes). `start` is only read, so threads may share it.
/// The working copies of the hash states are cleared before returning.
void coffer_hmac_sha256(const coffer_hmac_sha256_start *start, const uint8_t *message, size_t message_length,
                        uint8_t mac[32]);

#endif
