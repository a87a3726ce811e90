#ifndef C_LIB_CRYPTO_KEY_WRAP_H
#define C_LIB_CRYPTO_KEY_WRAP_H

#include <stddef.h>
#include <stdint.h>

/// RFC 3394 AES key unwrap under the 32-byte `kek`, with the default initial value: `wrapped`
/// (`wrapped_length` bytes, a multiple of 8, at least 24) into `key`, which must hold `wrapped_length` bytes
/// (the key is the first `wrapped_length - 8`). Returns 1 when the integrity check passes; otherwise 0,
/// with `key` cleared. The cipher context is cleared and freed, and the thread's OpenSSL error queue is left
/// empty.
int coffer_aes256_key_unwrap(const uint8_t *kek, const uint8_t *wrapped, size_t wrapped_length, uint8_t *key);

#endif
