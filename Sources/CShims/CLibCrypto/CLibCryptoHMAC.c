// The low-level SHA-256 calls are deprecated in OpenSSL 3 in favour of EVP, whose contexts are heap objects
// that cannot be copied without an allocation; a SHA256_CTX is a plain struct, which is what a precomputed
// HMAC start needs. They are still part of libcrypto's ABI and use the same hardware paths.
#define OPENSSL_SUPPRESS_DEPRECATED

#include "CLibCryptoHMAC.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>
#include "CLibCryptoLoader.h"  // after every other header: libcrypto loaded on first use

struct coffer_hmac_sha256_start {
    SHA256_CTX inner;
    SHA256_CTX outer;
};

coffer_hmac_sha256_start *coffer_hmac_sha256_start_new(const uint8_t *key, size_t key_length,
                                                       const uint8_t *prefix, size_t prefix_length) {
    coffer_hmac_sha256_start *start = malloc(sizeof *start);
    if (start == NULL) return NULL;
    uint8_t block[SHA256_CBLOCK];
    memset(block, 0, sizeof block);
    if (key_length > SHA256_CBLOCK) {
        SHA256(key, key_length, block);
    } else if (key_length > 0) {
        memcpy(block, key, key_length);
    }
    uint8_t pad[SHA256_CBLOCK];
    for (size_t index = 0; index < SHA256_CBLOCK; index++) pad[index] = block[index] ^ 0x36;
    SHA256_Init(&start->inner);
    SHA256_Update(&start->inner, pad, sizeof pad);
    if (prefix_length > 0) SHA256_Update(&start->inner, prefix, prefix_length);
    for (size_t index = 0; index < SHA256_CBLOCK; index++) pad[index] = block[index] ^ 0x5c;
    SHA256_Init(&start->outer);
    SHA256_Update(&start->outer, pad, sizeof pad);
    OPENSSL_cleanse(pad, sizeof pad);
    OPENSSL_cleanse(block, sizeof block);
    return start;
}

void coffer_hmac_sha256_start_free(coffer_hmac_sha256_start *start) {
    if (start == NULL) return;
    OPENSSL_cleanse(start, sizeof *start);
    free(start);
}

void coffer_hmac_sha256(const coffer_hmac_sha256_start *start, const uint8_t *message, size_t message_length,
                        uint8_t mac[32]) {
    SHA256_CTX context = start->inner;
    uint8_t inner[SHA256_DIGEST_LENGTH];
    if (message_length > 0) SHA256_Update(&context, message, message_length);
    SHA256_Final(inner, &context);
    context = start->outer;
    SHA256_Update(&context, inner, sizeof inner);
    SHA256_Final(mac, &context);
    OPENSSL_cleanse(inner, sizeof inner);
    OPENSSL_cleanse(&context, sizeof context);
}
