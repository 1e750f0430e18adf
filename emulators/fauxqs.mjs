// Runs the pinned fauxqs SQS emulator on the loopback interface for the multisell local
// stack (pkg/local/emulators starts it). Usage: node fauxqs.mjs [PORT]   (PORT 0 or absent with
// FAUXQS_PORT unset picks a free port). Prints one JSON line {"port":N} once it listens.
import { buildApp } from "fauxqs";

const port = Number(process.argv[2] ?? process.env.FAUXQS_PORT ?? 0);
const app = buildApp({ logger: false });
await app.listen({ port, host: "127.0.0.1" });
process.stdout.write(JSON.stringify({ port: app.server.address().port }) + "\n");

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    await app.close();
    process.exit(0);
  });
}
