// Sounds made here with the Web Audio API (no sound files): a card laid down, hearts
// broken, the queen of spades falling, a moon. Quiet unless the person wants them.

let context = null;
let played = 0;

function audio() {
  if (context === null) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A short tone: frequency in Hz (or [from, to] for a glide), start offset and length in s. */
function tone(ctx, frequency, start, length, { type = "sine", volume = 0.12 } = {}) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  const t = ctx.currentTime + start;
  const [from, to] = Array.isArray(frequency) ? frequency : [frequency, frequency];
  osc.type = type;
  osc.frequency.setValueAtTime(from, t);
  osc.frequency.exponentialRampToValueAtTime(to, t + length);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

/** A soft snap of noise, like a card on cloth. */
function snap(ctx) {
  const length = 0.06;
  const buffer = ctx.createBuffer(1, Math.floor(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = 0.5;
  source.buffer = buffer;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start();
}

const SOUNDS = {
  card: (ctx) => snap(ctx),
  hearts: (ctx) => { tone(ctx, 660, 0, 0.16); tone(ctx, 880, 0.12, 0.22); },
  queen: (ctx) => { tone(ctx, [392, 196], 0, 0.5, { type: "triangle", volume: 0.16 }); },
  moon: (ctx) => [523, 659, 784, 1047].forEach((f, i) => tone(ctx, f, i * 0.11, 0.3)),
};

/** Play a named sound if `on`; the page counts what it played (tests read the count). */
export function play(name, on) {
  if (!on || !SOUNDS[name]) return;
  const ctx = audio();
  if (!ctx) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    return; // a browser that refuses audio just stays quiet
  }
  played += 1;
  document.body.dataset.sounds = String(played);
  document.body.dataset.lastSound = name;
}
