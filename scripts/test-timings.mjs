// A reporter for node's test runner (scripts/test.mts): each test's file, name and time, one JSON line each. Suites
// (`describe`) are left out: their tests are listed.
export default async function* timings(source) {
  for await (const { type, data } of source) {
    if ((type === 'test:pass' || type === 'test:fail') && data.details?.type !== 'suite') {
      yield `${JSON.stringify({ file: data.file, name: data.name, ms: data.details?.duration_ms ?? 0 })}\n`
    }
  }
}
