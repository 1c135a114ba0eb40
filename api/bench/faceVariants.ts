import sharp, { type OverlayOptions } from 'sharp';
import type { FaceImage } from './faceScenes';
import { turnFace } from './selfieVariants';

/**
 * Event photos made from the face set, in the conditions a race photo meets: the clean scene, and
 * harder variants generated from it (blur, heavy JPEG compression, small faces in a crowd, dark and
 * bright light, sunglasses, caps). Each pasted face's place is known, so a detected face can be
 * labelled with its person. Shared by the quality benchmark and the quality test.
 */
export const VARIANTS = ['clean', 'blur', 'jpeg', 'crowd', 'dark', 'bright', 'sunglasses', 'cap'] as const;
/** Faces turned to one side (turnFace), measured by the held-out benchmark beside the eight above. */
export const TURNED = 'turned';
export type Variant = (typeof VARIANTS)[number] | typeof TURNED;

export interface PastedFace {
  person: string;
  file: string;
  /** x, y, size of the pasted square in the scene's pixels. */
  rect: [number, number, number];
}

export interface VariantScene {
  variant: Variant;
  name: string;
  jpeg: Buffer;
  faces: PastedFace[];
}

/** Sunglasses or a cap drawn over a tight face crop (the face set's crops: eyes at about 40% height). */
function accessory(kind: 'sunglasses' | 'cap', size: number): Buffer {
  const s = size;
  const shape =
    kind === 'sunglasses'
      ? `<ellipse cx="${s * 0.33}" cy="${s * 0.42}" rx="${s * 0.15}" ry="${s * 0.09}" fill="#111"/>
         <ellipse cx="${s * 0.67}" cy="${s * 0.42}" rx="${s * 0.15}" ry="${s * 0.09}" fill="#111"/>
         <rect x="${s * 0.46}" y="${s * 0.4}" width="${s * 0.08}" height="${s * 0.03}" fill="#111"/>`
      : `<rect x="0" y="0" width="${s}" height="${s * 0.2}" fill="#c0392b"/>
         <rect x="${s * 0.1}" y="${s * 0.17}" width="${s * 0.85}" height="${s * 0.08}" rx="${s * 0.03}" fill="#962d22"/>`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}">${shape}</svg>`);
}

async function pasteable(face: FaceImage, size: number, variant: Variant): Promise<Buffer> {
  let image = sharp(
    variant === TURNED ? await turnFace(face.image, 0.4, face.file.charCodeAt(face.file.length - 5) % 2 ? 'left' : 'right') : face.image,
  ).resize(size, size);
  if (variant === 'sunglasses' || variant === 'cap') image = sharp(await image.toBuffer()).composite([{ input: accessory(variant, size) }]);
  return image.png().toBuffer();
}

/** Sky, road and a crowd line behind the runners; vests with BIB patches under the faces. */
function background(width: number, height: number, random: () => number, faces: PastedFace[]): Buffer {
  const sky = [110 + Math.floor(random() * 60), 150 + Math.floor(random() * 50), 200 + Math.floor(random() * 40)];
  const parts = [
    `<rect width="${width}" height="${height}" fill="rgb(${sky.join(',')})"/>`,
    `<rect y="${height * 0.55}" width="${width}" height="${height * 0.45}" fill="rgb(${70 + Math.floor(random() * 30)},70,75)"/>`,
  ];
  for (const { rect } of faces) {
    const [x, y, s] = rect;
    const vest = [Math.floor(random() * 255), Math.floor(random() * 255), Math.floor(random() * 255)];
    parts.push(
      `<rect x="${x - s * 0.15}" y="${y + s * 0.95}" width="${s * 1.3}" height="${s * 2}" rx="${s * 0.2}" fill="rgb(${vest.join(',')})"/>`,
      `<rect x="${x + s * 0.2}" y="${y + s * 1.25}" width="${s * 0.6}" height="${s * 0.35}" fill="white"/>`,
    );
  }
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`);
}

/**
 * The scenes of one variant: every photo of the face set appears once. Clean-based variants group
 * two or three runners (150 to 200 px faces) per 960x600 scene; the crowd variant puts five runners
 * of 40 to 80 px into a 1280x853 scene.
 */
export async function variantScenes(faces: FaceImage[], variant: Variant, random: () => number): Promise<VariantScene[]> {
  const order = [...faces].sort((a, b) => (a.file < b.file ? -1 : 1));
  // Interleave people so each scene holds different people: photo j of every person, in turn.
  const people = [...new Set(order.map((f) => f.person))];
  const perPerson = Math.min(...people.map((p) => order.filter((f) => f.person === p).length));
  const sequence: FaceImage[] = [];
  for (let j = 0; j < perPerson; j += 1) for (const p of people) sequence.push(order.filter((f) => f.person === p)[j]!);
  const crowd = variant === 'crowd';
  const groupSizes = crowd ? [5] : [3, 2];
  const scenes: VariantScene[] = [];
  for (let at = 0, g = 0; at < sequence.length; g += 1) {
    const size = groupSizes[g % groupSizes.length]!;
    const group = sequence.slice(at, at + size);
    at += size;
    const width = crowd ? 1280 : 960;
    const height = crowd ? 853 : 600;
    const slot = width / group.length;
    const pasted: PastedFace[] = group.map((face, i) => {
      const s = crowd ? 40 + Math.floor(random() * 41) : 150 + Math.floor(random() * 50);
      const x = Math.floor(slot * i + (slot - s) * (0.3 + random() * 0.4));
      const y = Math.floor(height * (crowd ? 0.3 : 0.12) + random() * height * 0.1);
      return { person: face.person, file: face.file, rect: [x, y, s] };
    });
    const layers: OverlayOptions[] = [];
    for (let i = 0; i < group.length; i += 1) {
      layers.push({ input: await pasteable(group[i]!, pasted[i]!.rect[2], variant), left: pasted[i]!.rect[0], top: pasted[i]!.rect[1] });
    }
    let image = sharp(
      await sharp(background(width, height, random, pasted))
        .composite(layers)
        .png()
        .toBuffer(),
    );
    if (variant === 'blur') image = image.blur(2);
    if (variant === 'dark') image = image.linear(0.3, 0);
    if (variant === 'bright') image = image.linear(1.5, 40);
    const jpeg = await image.jpeg({ quality: variant === 'jpeg' ? 25 : 88 }).toBuffer();
    scenes.push({ variant, name: `${variant}-${String(g + 1).padStart(2, '0')}`, jpeg, faces: pasted });
  }
  return scenes;
}

/** Which pasted face a detected box is (its centre inside the pasted square), or null for a stray detection. */
export function personAt(box: readonly number[], pasted: PastedFace[]): PastedFace | null {
  const cx = box[0]! + box[2]! / 2;
  const cy = box[1]! + box[3]! / 2;
  return pasted.find(({ rect: [x, y, s] }) => cx >= x && cx <= x + s && cy >= y && cy <= y + s) ?? null;
}
