#ifndef VOCAB_PHONE_KERNELS_H
#define VOCAB_PHONE_KERNELS_H

#include <stdint.h>

/* Each word's `k` closest other words by their phones, for the pronunciation judge, written to
 * `out` (`words` rows of `k` word indices, -1 where a word has fewer).
 *
 * A word has transcriptions `first[w] ..< first[w + 1]`; transcription t is the phones
 * `phones[starts[t] ..< starts[t + 1]]`, each phone a number. Two words are as close as their
 * closest pair of transcriptions: the edit distance over the longer one's length, then the
 * difference of their lengths (a sound changed before one added or left out), then `rank` (the
 * words' places in spelling order). A word sharing a transcription (a homophone, another sense)
 * is never one of the closest, and of words whose transcriptions are all the same (`group`) the
 * first only is kept.
 *
 * In C because it compares every word with every other, some two million pairs for the
 * catalog: Swift took 14 s for it in a debug build, which the tests and a first attempt wait
 * for. Returns 0, or -1 when memory ran out. */
int vocab_closest_words(const uint16_t *phones, const int32_t *starts, const int32_t *first, const int32_t *rank, const int32_t *group,
                        int32_t words, int32_t k, int32_t *out);

#endif
