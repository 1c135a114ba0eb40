import { array, number, object, string } from 'yup';
import { CLIENT_REPORT_KINDS, CLIENT_REPORT_LIMITS, REMOTE_NAMES } from '../types/clientReports';

/** A batch of the shell's reports (types/clientReports.ts); the server validates every batch with it. */
export const clientReportBatchSchema = object({
  reports: array(
    object({
      kind: string()
        .required('Each report needs a kind.')
        .oneOf([...CLIENT_REPORT_KINDS], 'Unknown report kind.'),
      remote: string()
        .required('Each report needs a remote.')
        .oneOf([...REMOTE_NAMES], 'Unknown remote.'),
      version: string()
        .trim()
        .required('Each report needs a version.')
        .matches(/^(initial|v\d{1,6})$/, 'Unknown version.'),
      route: string().default('/'),
      message: string().default(''),
      count: number()
        .typeError('A count is a number.')
        .integer('A count is a whole number.')
        .min(1, 'A count is at least 1.')
        .max(CLIENT_REPORT_LIMITS.countPerReport, `A count is at most ${CLIENT_REPORT_LIMITS.countPerReport}.`)
        .default(1),
    }),
  )
    .required('Please send a list of reports.')
    .min(1, 'Please send at least one report.')
    .max(CLIENT_REPORT_LIMITS.batchSize, `Please send at most ${CLIENT_REPORT_LIMITS.batchSize} reports at once.`),
});
