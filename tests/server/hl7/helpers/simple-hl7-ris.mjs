// A RIS written by others for the tests: simple-hl7's MLLP server, in a process of its own.
// Usage: node simple-hl7-ris.mjs <port> <mode>   mode: AA | AE | AR | silent
// It prints one JSON line per message it reads (what its own parser makes of our fields), and
// answers with its own ACK (MSA-1 set to the mode), or never answers in 'silent' mode.
import hl7 from 'simple-hl7';

const [port, mode] = [Number(process.argv[2]), process.argv[3] ?? 'AA'];
const app = hl7.tcp();
app.use((req, res) => {
  const msg = req.msg;
  const pid = msg.getSegment('PID');
  const sch = msg.getSegment('SCH');
  const line = {
    type: `${req.type}^${req.event}`,
    controlId: msg.header.getField(8),
    placerId: sch ? sch.getComponent(1, 1) : null,
    fillerStatus: sch ? sch.getField(25) : null,
    family: pid ? pid.getComponent(5, 1) : null,
    given: pid ? pid.getComponent(5, 2) : null,
    patientId: pid ? pid.getComponent(3, 1) : null,
    birthDate: pid ? pid.getField(7) : null,
    raw: msg.toString(),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  if (mode === 'silent') return;
  res.ack.getSegment('MSA').setField(1, mode);
  res.end();
});
app.start(port);
process.stdout.write(`${JSON.stringify({ listening: port })}\n`);
