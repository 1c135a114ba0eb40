import { loadConfig } from '../config/config';
import { buildSandbox } from './sandbox';

/** Starts the payment sandbox on PAYMENT_SANDBOX_PORT (default 5000 + PORT_OFFSET) with the configured key and salt. */
async function main(): Promise<void> {
  const config = loadConfig();
  const port = config.paymentSandboxPort;
  const app = await buildSandbox({ key: config.payu.key, salt: config.payu.salt });
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port, host: config.host });
  console.log(`payment sandbox listening on http://localhost:${port}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
