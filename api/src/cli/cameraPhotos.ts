import fs from 'node:fs';
import path from 'node:path';
import { cameraPhoto } from '../seed/cameraPhoto';

/**
 * Writes camera-like race photos (seed/cameraPhoto.ts) into a folder, for trying the upload screen
 * by hand and for the browser journeys:
 *   tsx src/cli/cameraPhotos.ts <folder> <BIB|-> [<BIB|-> ...] [--width=3200] [--event=MCM26] [--name="..."]
 * "-" is a photo whose runner's BIB cannot be read. Prints the files written, one per line.
 */
const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const [folder, ...bibs] = args.filter((a) => !a.startsWith('--'));
if (!folder || bibs.length === 0) {
  console.error('usage: tsx src/cli/cameraPhotos.ts <folder> <BIB|-> [...] [--width=3200] [--event=CODE] [--name=EVENT NAME]');
  process.exit(2);
}
fs.mkdirSync(folder, { recursive: true });
for (const [i, bib] of bibs.entries()) {
  const file = path.join(folder, `${bib === '-' ? 'runner' : bib}-${i + 1}.jpg`);
  const jpeg = await cameraPhoto({
    bib: bib === '-' ? null : bib,
    seed: `${bib}/${i}`,
    width: Number(option('width') ?? 3200),
    eventCode: option('event'),
    eventName: option('name'),
  });
  fs.writeFileSync(file, jpeg);
  console.log(file);
}
