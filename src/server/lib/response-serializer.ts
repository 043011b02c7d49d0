import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { $ZodError } from 'zod/v4/core';

/**
 * Each route's answers written by a function compiled once from its zod response schema (ADR 042):
 * fast-json-stringify, Fastify's own serializer, over the schema's JSON Schema (the output side, as the
 * OpenAPI document shows it). Only the properties the schema names leave the server, as zod's parse let
 * only they leave; an answer without a required property is refused (500) rather than sent. What the schema
 * no longer checks at run time is each value's type and format, which TypeScript checks where the route
 * answers (the type provider). Zod's check of every answer was about 30 % of a signed-in request's app time.
 */
export function compileResponseSerializer(schema: z.ZodType): (data: unknown) => string {
  let serialize = compiled.get(schema);
  if (!serialize) {
    // The JSON Schema now, so a schema it cannot express stops the app at start; the function at the first
    // answer. Compiling every route's at start (about a millisecond each) made the start 60 % slower.
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' });
    let built: ((data: unknown) => string) | undefined;
    const build = () =>
      (built ??= fastJson(json as Parameters<typeof fastJson>[0]) as (data: unknown) => string);
    serialize = (data) => build()(data);
    compiled.set(schema, serialize);
    builders.push(build);
  }
  return serialize;
}

/** Each schema once for the process: most routes answer their errors with the same `apiErrorSchema`. */
const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();
const builders: (() => unknown)[] = [];

/**
 * Builds now every serializer not yet used (a test's way to show that every route's answers compile, which
 * the app itself finds out at each route's first answer); answers how many schemas there are.
 */
export function buildEveryResponseSerializer(): number {
  for (const build of builders) build();
  return builders.length;
}

/** The app's serializer compiler: a route's answer that does not fit its schema is a 500, never sent. */
export const responseSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url }) => {
  const serialize = compileResponseSerializer(schema);
  return (data: unknown) => {
    try {
      return serialize(data);
    } catch (error) {
      throw new ResponseSerializationError(method, url, { cause: error as $ZodError });
    }
  };
};
