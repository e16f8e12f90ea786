// The offer's alert: a short tone (Web Audio: no sound file to fetch or
// cache) and a vibration. Browsers allow sound only after the driver touched
// the page once, so the audio context is made on the first touch.
let audio: AudioContext | null = null;

export function unlockSound(): void {
  if (audio || typeof window === "undefined" || !("AudioContext" in window)) return;
  try {
    audio = new AudioContext();
  } catch {
    audio = null;
  }
}

export function ring(): void {
  try {
    navigator.vibrate?.([300, 150, 300, 150, 300]);
  } catch {
    // Vibration is optional (iPhones have none in the browser).
  }
  if (!audio) return;
  void audio.resume();
  const now = audio.currentTime;
  for (const [i, freq] of [880, 1175, 880].entries()) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + i * 0.25);
    gain.gain.exponentialRampToValueAtTime(0.4, now + i * 0.25 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.25 + 0.22);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + i * 0.25);
    osc.stop(now + i * 0.25 + 0.24);
  }
}
