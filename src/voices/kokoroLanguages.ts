// Kokoro-82M's v1.0 voices beyond English (kokoro-js 1.2.1's style vectors), as the catalogue offers them once installed.
//
// Spanish is phonemized with espeak-ng's `es`, the Castilian one (θ for c and z), so its voices are es_ES; the
// languages list serves es_MX and es_US with them too (regions without a voice of their own, docs/voices.md).
// Names are the voices' own; where Kokoro's voice list grades them, the better come first (ff_siwis B-, the Japanese
// and Italian C+ to C-; the Mandarin are all D and keep their names' order), and within a language the female voices
// lead as for English. Santa, a novelty voice, comes last.
export const KOKORO_VOICES_BEYOND_ENGLISH = [
  { engineVoice: 'ef_dora', name: 'Dora', code: 'es_ES', gender: 'female', accent: 'Castilian' },
  { engineVoice: 'em_alex', name: 'Alex', code: 'es_ES', gender: 'male', accent: 'Castilian' },
  { engineVoice: 'em_santa', name: 'Santa', code: 'es_ES', gender: 'male', accent: 'Castilian' },
  { engineVoice: 'ff_siwis', name: 'Siwis', code: 'fr_FR', gender: 'female', accent: 'French' },
  { engineVoice: 'if_sara', name: 'Sara', code: 'it_IT', gender: 'female', accent: 'Italian' },
  { engineVoice: 'im_nicola', name: 'Nicola', code: 'it_IT', gender: 'male', accent: 'Italian' },
  { engineVoice: 'pf_dora', name: 'Dora', code: 'pt_BR', gender: 'female', accent: 'Brazilian' },
  { engineVoice: 'pm_alex', name: 'Alex', code: 'pt_BR', gender: 'male', accent: 'Brazilian' },
  { engineVoice: 'pm_santa', name: 'Santa', code: 'pt_BR', gender: 'male', accent: 'Brazilian' },
  { engineVoice: 'hf_alpha', name: 'Alpha', code: 'hi_IN', gender: 'female', accent: 'Indian' },
  { engineVoice: 'hf_beta', name: 'Beta', code: 'hi_IN', gender: 'female', accent: 'Indian' },
  { engineVoice: 'hm_omega', name: 'Omega', code: 'hi_IN', gender: 'male', accent: 'Indian' },
  { engineVoice: 'hm_psi', name: 'Psi', code: 'hi_IN', gender: 'male', accent: 'Indian' },
  { engineVoice: 'jf_alpha', name: 'Alpha', code: 'ja_JP', gender: 'female', accent: 'Japanese' },
  { engineVoice: 'jf_gongitsune', name: 'Gongitsune', code: 'ja_JP', gender: 'female', accent: 'Japanese' },
  { engineVoice: 'jf_tebukuro', name: 'Tebukuro', code: 'ja_JP', gender: 'female', accent: 'Japanese' },
  { engineVoice: 'jf_nezumi', name: 'Nezumi', code: 'ja_JP', gender: 'female', accent: 'Japanese' },
  { engineVoice: 'jm_kumo', name: 'Kumo', code: 'ja_JP', gender: 'male', accent: 'Japanese' },
  { engineVoice: 'zf_xiaobei', name: 'Xiaobei', code: 'zh_CN', gender: 'female', accent: 'Mainland' },
  { engineVoice: 'zf_xiaoni', name: 'Xiaoni', code: 'zh_CN', gender: 'female', accent: 'Mainland' },
  { engineVoice: 'zf_xiaoxiao', name: 'Xiaoxiao', code: 'zh_CN', gender: 'female', accent: 'Mainland' },
  { engineVoice: 'zf_xiaoyi', name: 'Xiaoyi', code: 'zh_CN', gender: 'female', accent: 'Mainland' },
  { engineVoice: 'zm_yunjian', name: 'Yunjian', code: 'zh_CN', gender: 'male', accent: 'Mainland' },
  { engineVoice: 'zm_yunxi', name: 'Yunxi', code: 'zh_CN', gender: 'male', accent: 'Mainland' },
  { engineVoice: 'zm_yunxia', name: 'Yunxia', code: 'zh_CN', gender: 'male', accent: 'Mainland' },
  { engineVoice: 'zm_yunyang', name: 'Yunyang', code: 'zh_CN', gender: 'male', accent: 'Mainland' },
] as const;
