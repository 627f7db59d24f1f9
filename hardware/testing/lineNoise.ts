/**
 * Noise as a bad cable or a wrong line setting puts on a serial line, for the noise tests (the
 * hardware's and the console's). Uniform random bytes almost never frame into a card (none in
 * 4 MiB on the `text` profile), so half the bytes are drawn from what a text shoe sends: line
 * ends, spaces, ranks, suits. This is the worse noise for the noise flag, since it makes cards
 * (and now and then a device message) out of nothing far more often.
 */
const SHOE_LIKE = [...Buffer.from('\r\n \r\nAKQJT1098765432shdcSHDCEMPTYNEW'), ...Buffer.from('♠♥♦♣')];

export function lineNoise(random: () => number, size: number): Buffer {
  const chunk = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) {
    chunk[index] = random() < 0.5 ? (SHOE_LIKE[Math.floor(random() * SHOE_LIKE.length)] as number) : Math.floor(random() * 256);
  }
  return chunk;
}
