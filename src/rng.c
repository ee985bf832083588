/* rng.c - xoshiro256** seeded by SplitMix64, and unbiased bounded draws (see rng.h). */
#include "npuzzle/rng.h"

__extension__ typedef unsigned __int128 u128; /* GCC and clang on 64-bit targets */

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void np_rng_seed(np_rng *r, uint64_t seed)
{
    /* SplitMix64: each step adds the golden-ratio increment and mixes. */
    for (int i = 0; i < 4; i++) {
        seed += UINT64_C(0x9E3779B97F4A7C15);
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        r->s[i] = z ^ (z >> 31);
    }
}

uint64_t np_rng_next(np_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* The high half of x * n is in 0 .. n-1; the products whose low half falls
 * below 2^64 mod n would make some values one draw likelier, so they are
 * drawn again (fewer than one in 2^32 draws for n below 2^32). */
uint64_t np_rng_below(np_rng *r, uint64_t n)
{
    u128 m = (u128)np_rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        const uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            m = (u128)np_rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}
