#include "phone_kernels.h"

#include <stdlib.h>

static double distance(const uint16_t *a, int32_t na, const uint16_t *b, int32_t nb, int32_t *row) {
    if (na == 0 || nb == 0) return na == nb ? 0 : 1;
    for (int32_t j = 0; j <= nb; j++) row[j] = j;
    for (int32_t i = 1; i <= na; i++) {
        int32_t diagonal = row[0];
        row[0] = i;
        for (int32_t j = 1; j <= nb; j++) {
            int32_t above = row[j];
            int32_t best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            int32_t change = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            if (change < best) best = change;
            row[j] = best;
            diagonal = above;
        }
    }
    return (double)row[nb] / (double)(na > nb ? na : nb);
}

int vocab_closest_words(const uint16_t *phones, const int32_t *starts, const int32_t *first, const int32_t *rank, const int32_t *group,
                        int32_t words, int32_t k, int32_t *out) {
    int32_t longest = 0;
    for (int32_t t = 0; t < first[words]; t++) {
        if (starts[t + 1] - starts[t] > longest) longest = starts[t + 1] - starts[t];
    }
    double *far = malloc(sizeof(double) * (size_t)(words > 0 ? words : 1));
    int32_t *lengths = malloc(sizeof(int32_t) * (size_t)(words > 0 ? words : 1));
    int32_t *row = malloc(sizeof(int32_t) * (size_t)(longest + 1));
    int32_t *chosen = malloc(sizeof(int32_t) * (size_t)(k > 0 ? k : 1));
    if (!far || !lengths || !row || !chosen) {
        free(far), free(lengths), free(row), free(chosen);
        return -1;
    }
    for (int32_t target = 0; target < words; target++) {
        for (int32_t w = 0; w < words; w++) {
            far[w] = -1; /* not a candidate */
            if (w == target) continue;
            double best = 2;
            int32_t bestLengths = INT32_MAX;
            for (int32_t x = first[target]; x < first[target + 1]; x++) {
                for (int32_t y = first[w]; y < first[w + 1]; y++) {
                    int32_t na = starts[x + 1] - starts[x], nb = starts[y + 1] - starts[y];
                    double d = distance(phones + starts[x], na, phones + starts[y], nb, row);
                    int32_t l = na > nb ? na - nb : nb - na;
                    if (d < best || (d == best && l < bestLengths)) best = d, bestLengths = l;
                }
            }
            /* A shared transcription: saying it is saying the word. */
            if (best == 0 || first[w] == first[w + 1] || first[target] == first[target + 1]) continue;
            far[w] = best;
            lengths[w] = bestLengths;
        }
        int32_t count = 0;
        while (count < k) {
            int32_t pick = -1;
            for (int32_t w = 0; w < words; w++) {
                if (far[w] < 0) continue;
                if (pick < 0 || far[w] < far[pick] || (far[w] == far[pick] && (lengths[w] < lengths[pick] || (lengths[w] == lengths[pick] && rank[w] < rank[pick]))))
                    pick = w;
            }
            if (pick < 0) break;
            far[pick] = -1;
            int32_t seen = 0;
            for (int32_t c = 0; c < count; c++) seen |= group[chosen[c]] == group[pick];
            if (!seen) chosen[count++] = pick;
        }
        for (int32_t c = 0; c < k; c++) out[(size_t)target * (size_t)k + (size_t)c] = c < count ? chosen[c] : -1;
    }
    free(far), free(lengths), free(row), free(chosen);
    return 0;
}
