/**
 * React-facing helpers of shared, used by the shell and every remote (never by the server).
 */
import { useEffect } from 'react';

export { finishlineTheme, useFinishlineTheme, useMediaQuery, usePrefersReducedMotion } from './react/theme';

/** Sets document.title while a page is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

export { BuildBanner, NotAvailableYet } from './react/placeholders';
export { RemoteRoutes } from './react/RemoteRoutes';
export { AntdRoot } from './react/AntdRoot';
export { lazyPage, lazyPageWithAntdApp } from './react/lazyPage';
export { CaptchaField, useRequestedCaptcha, type CaptchaFieldProps, type RequestedCaptcha } from './react/CaptchaField';
export { mountStandalone } from './react/mountStandalone';
export { FormField, shownError } from './react/FormField';
export { ProcessingOverlay } from './react/ProcessingOverlay';
export { FormCard } from './react/FormCard';
export { IsdCodeSelect } from './react/IsdCodeSelect';
export { ExpiredSession } from './react/ExpiredSession';
export { ResultHeading } from './react/ResultHeading';
export { useReplacesFirstPaint } from './react/useReplacesFirstPaint';
export { PhoneField, type PhoneInputBinding } from './react/PhoneField';
export { DigitalDownloadsTitle, ULTRA_TOOLTIP_TEXT, ULTRA_TOOLTIP_TOUCH_MS } from './react/DigitalDownloadsTitle';
export { TextFields, type TextFieldSpec } from './react/TextFields';
export { SignUpForm } from './react/SignUpForm';
export { CsvButton, downloadTextFile, saveBlob } from './react/CsvButton';
export { useRowAction } from './react/useRowAction';
export { RecordsTable } from './react/RecordsTable';
export { PhoneCardsTable, type PhoneCardsTableProps } from './react/PhoneCardsTable';
export { returnHomeActions } from './react/returnHomeActions';
export { useAccessRefused } from './react/useAccessRefused';
export { ControlledField } from './react/ControlledField';
export { EmailProofPanel, EMAIL_CODE_RESEND_SECONDS } from './react/EmailProofPanel';
export { DescribedImage } from './react/DescribedImage';
export { useLeaveWarning } from './react/useLeaveWarning';
export { UploadFileRow, megabytes, type UploadFileState, type UploadRowFile } from './react/UploadFileRow';
export { StartFromHome } from './react/StartFromHome';
export { decisionColumn, type DecisionChoice } from './react/decisionColumn';
export { useSearchedPages } from './react/useSearchedPages';
