import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One HTTP request to 127.0.0.1:`port` with exactly these headers (no Host unless given) and the
 * path exactly as written: fetch would add its own headers and normalise the dots away first.
 */
export function rawRequest(port: number, path: string, headers: OutgoingHttpHeaders, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, method, headers, setHost: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}
