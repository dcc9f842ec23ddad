#include "espeak_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *library;
static char load_error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int (*p_initialize)(espeak_AUDIO_OUTPUT, int, const char *, int);
static void (*p_set_callback)(t_espeak_callback *);
static espeak_ERROR (*p_set_voice)(espeak_VOICE *);
static espeak_ERROR (*p_set_voice_by_name)(const char *);
static espeak_VOICE *(*p_current_voice)(void);
static const char *(*p_info)(const char **);
static void (*p_initialize_path)(const char *);
static espeak_ERROR (*p_set_parameter)(espeak_PARAMETER, int, int);
static espeak_ERROR (*p_synth)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int, unsigned int *, void *);

static void load(void) {
    library = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s (install libespeak-ng1)", dlerror());
        return;
    }
    p_initialize = dlsym(library, "espeak_Initialize");
    p_set_callback = dlsym(library, "espeak_SetSynthCallback");
    p_set_voice = dlsym(library, "espeak_SetVoiceByProperties");
    p_set_voice_by_name = dlsym(library, "espeak_SetVoiceByName");
    p_current_voice = dlsym(library, "espeak_GetCurrentVoice");
    p_info = dlsym(library, "espeak_Info");
    p_initialize_path = dlsym(library, "espeak_ng_InitializePath");
    p_synth = dlsym(library, "espeak_Synth");
    p_set_parameter = dlsym(library, "espeak_SetParameter");
    if (!p_initialize || !p_set_callback || !p_set_voice || !p_set_voice_by_name || !p_current_voice || !p_info
        || !p_initialize_path || !p_synth || !p_set_parameter) {
        snprintf(load_error, sizeof load_error, "libespeak-ng.so.1 lacks an expected function");
        library = NULL;
    }
}

int vocab_espeak_available(void) { pthread_once(&once, load); return library != NULL; }
const char *vocab_espeak_load_error(void) { pthread_once(&once, load); return load_error; }

const char *vocab_espeak_system_data_path(void) {
    if (!vocab_espeak_available()) return "";
    const char *path = NULL;
    p_initialize_path(NULL);
    p_info(&path);
    return path ? path : "";
}

int vocab_espeak_initialize_quietly(int buflength, const char *path) {
    if (!vocab_espeak_available()) return -1;
    const char *previous = getenv("PULSE_SERVER");
    char *saved = previous ? strdup(previous) : NULL;
    setenv("PULSE_SERVER", "", 1);
    int rate = p_initialize(AUDIO_OUTPUT_SYNCHRONOUS, buflength, path, 0);
    if (saved) {
        setenv("PULSE_SERVER", saved, 1);
        free(saved);
    } else {
        unsetenv("PULSE_SERVER");
    }
    return rate;
}

void vocab_espeak_SetSynthCallback(t_espeak_callback *callback) { if (vocab_espeak_available()) p_set_callback(callback); }
espeak_ERROR vocab_espeak_SetVoiceByProperties(espeak_VOICE *voice) { return vocab_espeak_available() ? p_set_voice(voice) : EE_INTERNAL_ERROR; }
espeak_ERROR vocab_espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative) {
    return vocab_espeak_available() ? p_set_parameter(parameter, value, relative) : EE_INTERNAL_ERROR;
}
espeak_ERROR vocab_espeak_SetVoiceByName(const char *name) { return vocab_espeak_available() ? p_set_voice_by_name(name) : EE_INTERNAL_ERROR; }
const char *vocab_espeak_current_voice_identifier(void) {
    if (!vocab_espeak_available()) return NULL;
    espeak_VOICE *voice = p_current_voice();
    return voice ? voice->identifier : NULL;
}
espeak_ERROR vocab_espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                                unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data) {
    return vocab_espeak_available() ? p_synth(text, size, position, position_type, end_position, flags, unique_identifier, user_data)
                                    : EE_INTERNAL_ERROR;
}
