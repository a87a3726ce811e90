#include "CSecretServiceDH.h"

#include <openssl/bn.h>
#include "CLibCryptoLoader.h"  // after every other header: libcrypto loaded on first use

int coffer_secret_modexp(const uint8_t *base, size_t base_len, const uint8_t *exponent, size_t exponent_len,
                         const uint8_t *modulus, size_t modulus_len, uint8_t *result) {
    int ok = 0;
    BN_CTX *context = BN_CTX_secure_new();
    BIGNUM *b = BN_bin2bn(base, (int)base_len, NULL);
    BIGNUM *e = BN_secure_new();
    BIGNUM *m = BN_bin2bn(modulus, (int)modulus_len, NULL);
    BIGNUM *r = BN_secure_new();
    if (context != NULL && b != NULL && e != NULL && m != NULL && r != NULL &&
        BN_bin2bn(exponent, (int)exponent_len, e) != NULL) {
        BN_set_flags(e, BN_FLG_CONSTTIME);
        ok = BN_mod_exp_mont_consttime(r, b, e, m, context, NULL) == 1 &&
             BN_bn2binpad(r, result, (int)modulus_len) == (int)modulus_len;
    }
    BN_clear_free(r);
    BN_free(m);
    BN_clear_free(e);
    BN_free(b);
    BN_CTX_free(context);
    return ok ? 0 : -1;
}
