/** Master configuration (GET master configuration), stored under Config. */
export interface MasterConfig {
  /** Event ids for which prints and collages are hidden. */
  DISABLEPRINTS: number[];
  /** Country calling code of the caller, looked up by the server from the client address. */
  country_calling_code: string;
  country: string;
}
