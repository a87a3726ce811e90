#ifndef C_SECRET_SERVICE_DH_H
#define C_SECRET_SERVICE_DH_H

#include <stddef.h>
#include <stdint.h>

/// `base` ^ `exponent` mod `modulus`, all unsigned big-endian byte strings, written to `result` as
/// `modulus_len` bytes (zero-padded on the left), with OpenSSL's constant-time Montgomery exponentiation
/// (the exponent is a Diffie-Hellman private key; `modulus` must be odd). Returns 0, or -1 on failure.
int coffer_secret_modexp(const uint8_t *base, size_t base_len, const uint8_t *exponent, size_t exponent_len,
                         const uint8_t *modulus, size_t modulus_len, uint8_t *result);

#endif
