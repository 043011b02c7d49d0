// The framework's ceiling on this machine: a bare Fastify route that answers a fixed JSON body from memory.
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.env.BODY_FILE, 'utf8');
const app = Fastify({ logger: false });
app.get('/api/v1/gift-cards', (_request, reply) => reply.type('application/json').send(body));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
