#ifndef VOCAB_ESPEAK_SHIM_H
#define VOCAB_ESPEAK_SHIM_H
#include <espeak-ng/speak_lib.h>

/* libespeak-ng (and the audio stack it pulls in) is loaded on first use, not at start-up. */
int vocab_espeak_available(void);
const char *vocab_espeak_load_error(void);

/* The espeak-ng-data folder the library finds on its own ($ESPEAK_DATA_PATH, ~/espeak-ng-data
   or the compiled-in default), or "" when there is none. */
const char *vocab_espeak_system_data_path(void);

/* espeak_Initialize for synthesis into a buffer, with PulseAudio kept out of it: libespeak-ng
   1.51 probes an audio device (pcaudiolib: pa_simple_new, then ALSA) even in synchronous mode,
   which creates $XDG_CONFIG_HOME/pulse, a /tmp/pulse-* folder and tries the pulse sockets.
   PULSE_SERVER is set to the empty server list for the duration of the call only (libpulse
   then fails the probe at once, touching no file and no socket) and restored afterwards, so
   a player vocab starts later still finds the user's sound server. */
int vocab_espeak_initialize_quietly(int buflength, const char *path);

void vocab_espeak_SetSynthCallback(t_espeak_callback *callback);
espeak_ERROR vocab_espeak_SetVoiceByProperties(espeak_VOICE *voice);
espeak_ERROR vocab_espeak_SetVoiceByName(const char *name);
espeak_ERROR vocab_espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative);
/* The identifier (voice file name, "gmw/en") of the voice now selected, or NULL. */
const char *vocab_espeak_current_voice_identifier(void);
espeak_ERROR vocab_espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                                unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data);
#endif
