// The baseline the mock is measured against: plain node:http doing only the work any server giving the
// same answers must do. It checks the bearer key and writes the answer made once for each known request;
// for a POST it reads the body, parses it, stores the pet and serializes it. The answers come from the
// benchmark over IPC (see BareConfig in bench/servers.ts), and the port goes back the same way.
import { createServer } from 'node:http';

/** @typedef {{ status: number, headers: Record<string, string>, body: string }} Answer */

/** @param {Answer} answer the answer with its content-length, computed once */
const prepared = ({ status, headers, body }) => ({ status, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, body });

/** @param {import('node:http').ServerResponse} response @param {Answer} answer */
function write(response, { status, headers, body }) {
  response.writeHead(status, headers);
  response.end(body);
}

/** @param {{ apiKey: string, unauthorized: Answer, answers: Record<string, Answer>, create: { path: string, headers: Record<string, string>, firstId: number } }} config */
function serve({ apiKey, unauthorized, answers, create }) {
  const bearer = `Bearer ${apiKey}`;
  const refusal = prepared(unauthorized);
  const known = new Map(Object.entries(answers).map(([request, answer]) => [request, prepared(answer)]));
  const unknown = prepared({ status: 404, headers: {}, body: '' });
  const pets = [];

  return createServer((request, response) => {
    if (request.headers.authorization !== bearer) return write(response, refusal);
    if (request.method === 'POST' && request.url === create.path) {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const draft = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const pet = { id: create.firstId + pets.length, name: draft.name, categoryId: draft.categoryId, status: draft.status ?? 'available' };
        pets.push(pet);
        const body = JSON.stringify(pet);
        write(response, { status: 201, headers: { ...create.headers, location: `${create.path}/${pet.id}`, 'content-length': Buffer.byteLength(body) }, body });
      });
      return;
    }
    write(response, known.get(`${request.method} ${request.url}`) ?? unknown);
  });
}

process.once('message', (config) => {
  const server = serve(config);
  server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
});

// The benchmark that forked this process is gone (killed, or a test run stopped): so is the reason to serve.
process.once('disconnect', () => process.exit(0));
