// Debian's nginx as a reverse proxy, the ceiling a gateway is measured against: its packaged
// defaults (worker_processes auto, the default access log on, written to a file), a keep-alive
// upstream pool as any proxy configuration would have, in a temporary prefix removed at the end.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX_BINARY = process.env['NGINX_BINARY'] ?? '/usr/sbin/nginx';

function nginxConfig(prefix: string, port: number, upstream: string): string {
  return `
worker_processes auto;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
daemon off;
events { worker_connections 768; }
http {
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream service { server ${upstream}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`;
}

/** Starts nginx on `port` in front of `upstream` (host:port); `stop()` ends it and removes its prefix. */
export interface Nginx {
  child: ChildProcess;
  version: string;
  accessLogBytes(): number;
  stop(): Promise<void>;
}

export function startNginx(port: number, upstream: string): Nginx {
  if (!existsSync(NGINX_BINARY)) throw new Error(`${NGINX_BINARY} is missing: apt-get install -y nginx (or set NGINX_BINARY)`);
  const prefix = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  const configFile = join(prefix, 'nginx.conf');
  writeFileSync(configFile, nginxConfig(prefix, port, upstream));
  const test = spawnSync(NGINX_BINARY, ['-p', prefix, '-c', configFile, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx refused its configuration: ${test.stderr}`);
  const child = spawn(NGINX_BINARY, ['-p', prefix, '-c', configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  const version = spawnSync(NGINX_BINARY, ['-v'], { encoding: 'utf8' }).stderr.trim();
  return {
    child,
    version,
    accessLogBytes: () => (existsSync(join(prefix, 'access.log')) ? readFileSync(join(prefix, 'access.log')).length : 0),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
