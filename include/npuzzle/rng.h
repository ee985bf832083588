/* rng.h - a small seeded random number generator (xoshiro256**), for reproducible random boards.
 *
 * The state is the caller's value: no hidden global state, one generator per
 * thread. The same seed gives the same sequence on every machine.
 */
#ifndef NPUZZLE_RNG_H
#define NPUZZLE_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! A generator's state: a transparent value type, filled by np_rng_seed(). */
typedef struct np_rng {
    uint64_t s[4];
} np_rng;

/*! Seed `r` (the caller's) from any 64-bit value (the four state words come
 *  from SplitMix64 steps of the seed, so they are never all zero). Cannot fail. */
void np_rng_seed(np_rng *r, uint64_t seed);

/*! @return the next 64 random bits (xoshiro256**, Blackman and Vigna 2018);
 *  advances `r`. Cannot fail. */
uint64_t np_rng_next(np_rng *r);

/*! @return a uniformly distributed value in 0 .. n-1 (n >= 1; 0 for n = 0),
 *  without the bias of a plain remainder (Lemire's multiply-and-reject);
 *  advances `r`. Cannot fail. */
uint64_t np_rng_below(np_rng *r, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif
