import { startSystem } from './dist/test/support/system.js';
const s = await startSystem({});
const login = await (await fetch(s.gatewayUrl + '/api/auth/login/email', {method:'POST', headers:{'content-type':'application/json'}, body: JSON.stringify({email:'admin@example.com', password:'Admin123!'})})).json();
const auth = 'Bearer ' + login.data.accessToken;
const tries = [
  ['POST', '/api/upload/multiple?uploadType=file', {'content-type':'multipart/form-data'}, '--x\r\n'],
  ['POST', '/api/upload?uploadType=file', {'content-type':'multipart/form-data'}, 'abc'],
  ['POST', '/upload/multiple?uploadType=video', {'content-type':'multipart/form-data; boundary=fuzzff'}, '{"a":"' + 'x'.repeat(2*1024*1024) + '"}'],
  ['POST', '/upload/multiple?uploadType=video', {'content-type':'multipart/form-data; boundary=fuzzff'}, '{"a":"' + 'x'.repeat(1000) + '"}'],
  ['POST', '/api/upload?uploadType=image', {'content-type':'multipart/form-data; boundary=fuzzff'}, 'x'.repeat(2*1024*1024)],
  ['DELETE', '/api/users/' + 'x'.repeat(300), {}, undefined],
  ['GET', '/api/users/' + 'x'.repeat(300), {}, undefined],
  ['PATCH', '/api/lookups/provinces/' + 'x'.repeat(300), {'content-type':'application/json'}, '{}'],
];
for (const [method, path, headers, body] of tries) {
  const r = await fetch(s.gatewayUrl + path, {method, headers: {...headers, authorization: auth}, body});
  console.log(method, path.slice(0,60), r.status, (await r.text()).slice(0, 200));
}
await new Promise(r => setTimeout(r, 500));
for (const n of ['gateway','media','identity']) { const l = s.logs(n).split('\n').filter(x => /"level":(50|40)/.test(x)); console.log('---', n, l.slice(-4).join('\n').slice(0,2500)); }
await s.shutdown();
