import { certificateTemplateConfigSchema, type CertificateTemplateConfig, type CertificateTextItem } from '@finishline/shared/pure';
import { validate } from '../../http/validate';

/**
 * What a race's certificate and a series share when an organiser sends a template with the fields
 * placed: the shared template rules (a field off the canvas is named, as a 400), and which field
 * shows a race the certificate is not of.
 */
export async function placedTemplate(input: unknown): Promise<CertificateTemplateConfig> {
  // yup's inferred type widens the string unions; the schema checked them.
  return (await validate(certificateTemplateConfigSchema, input)) as unknown as CertificateTemplateConfig;
}

/** The first per-race field (time, race name, BIB) whose race is not one of eventIds. */
export function fieldOfOtherRace(config: CertificateTemplateConfig, eventIds: number[]): CertificateTextItem | undefined {
  return config.texts.find((item) => item.field !== 'participant_name' && item.field !== 'static' && !eventIds.includes(item.event_id ?? -1));
}
