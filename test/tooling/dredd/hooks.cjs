// Dredd sends one request per documented response: the spec's examples, with the key from
// `--header "Authorization: Bearer KEY"`. Those requests earn the success statuses; each error
// status needs the request that provokes it, which is all these hooks change.
const hooks = require('hooks');

/** Requests `uri` (`/pets/abc`) under the same base path (`/v1`) as the example request. */
function path(transaction, uri) {
  const base = transaction.fullPath.slice(0, transaction.fullPath.length - transaction.request.uri.length);
  transaction.fullPath = base + uri;
  transaction.request.uri = uri;
}

function prefer(status) {
  return (transaction) => {
    transaction.request.headers.Prefer = `code=${status}`;
  };
}

function withoutKey(transaction) {
  delete transaction.request.headers.Authorization;
}

const provoke = {
  'GET /pets 400': (transaction) => path(transaction, '/pets?limit=0'),
  'GET /pets 401': withoutKey,
  'GET /pets 429': prefer(429),
  'GET /pets 500': prefer(500),
  'GET /pets 503': prefer(503),
  'POST /pets 400': (transaction) => {
    transaction.request.body = JSON.stringify({ categoryId: 3 });
  },
  'POST /pets 401': withoutKey,
  'POST /pets 413': (transaction) => {
    transaction.request.body = JSON.stringify({ name: 'x'.repeat(1_100_000), categoryId: 3 });
  },
  'POST /pets 415': (transaction) => {
    transaction.request.headers['Content-Type'] = 'text/plain';
  },
  'POST /pets 429': prefer(429),
  'POST /pets 500': prefer(500),
  'POST /pets 503': prefer(503),
  'GET /pets/{petId} 400': (transaction) => path(transaction, '/pets/abc'),
  'GET /pets/{petId} 401': withoutKey,
  'GET /pets/{petId} 404': (transaction) => path(transaction, '/pets/99999'),
  'GET /pets/{petId} 410': prefer(410),
  'GET /pets/{petId} 429': prefer(429),
  'GET /pets/{petId} 500': prefer(500),
  'GET /pets/{petId} 503': prefer(503),
};

hooks.beforeEach((transaction, done) => {
  const name = `${transaction.request.method} ${transaction.origin.resourceName} ${transaction.expected.statusCode}`;
  const change = provoke[name];
  if (change) change(transaction);
  else if (!transaction.expected.statusCode.startsWith('2')) transaction.fail = `no hook provokes ${name}: add one to test/tooling/dredd/hooks.cjs`;
  // Dredd skips every non-2xx transaction unless told otherwise.
  transaction.skip = false;
  done();
});
