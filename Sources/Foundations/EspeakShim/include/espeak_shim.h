#ifndef VOCAB_ESPEAK_SHIM_H
#define VOCAB_ESPEAK_SHIM_H
#include <espeak-ng/speak_lib.h>

/* libespeak-ng (and the audio stack it pulls in) is loaded on first use, not at start-up. */
int vocab_espeak_available(void);
const char *vocab_espeak_load_error(void);

int vocab_espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options);
void vocab_espeak_SetSynthCallback(t_espeak_callback *callback);
espeak_ERROR vocab_espeak_SetVoiceByProperties(espeak_VOICE *voice);
espeak_ERROR vocab_espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                                unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data);
#endif
