// The framework's ceiling on this machine: a bare Fastify route that answers a fixed JSON body from memory
// (the catalogue's first page, or with ?q= the search's page, as the app answered them).
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.env.BODY_FILE, 'utf8');
const search = process.env.SEARCH_FILE ? readFileSync(process.env.SEARCH_FILE, 'utf8') : body;
const app = Fastify({ logger: false });
app.get('/api/v1/gift-cards', (request, reply) =>
  reply.type('application/json').send(request.query.q ? search : body),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
