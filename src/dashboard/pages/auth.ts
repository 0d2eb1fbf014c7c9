/** Sign up, sign in, sign out. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isProblem } from '../../core/problem.ts';
import { createSession, deleteSession } from '../../users/sessions.ts';
import { signIn } from '../../users/sign-in.ts';
import { countAttempt } from '../../users/throttle.ts';
import { signUp } from '../../users/users.ts';
import { PASSWORD_MIN } from '../../users/passwords.ts';
import { field, notFound, pageContext, PageError, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { csrfField, describedBy, fieldError, page, type FieldError } from '../layout.ts';
import { clearSessionCookie, setSessionCookie } from '../session.ts';

/** Where to go after signing in: only a path on this site (never `//evil` or a full URL). */
export function safeNext(next: string): string {
  return /^\/(?![/\\])[^\s]*$/.test(next) && !next.startsWith('/sign-') ? next : '/keys';
}

const SIGNUPS_PER_ADDRESS_PER_HOUR = 10;

interface FormState {
  email: string;
  errors: FieldError[];
  notice?: string;
  next?: string;
}

function signInPage(request: FastifyRequest, reply: FastifyReply, dash: Dashboard, state: FormState) {
  const ctx = pageContext(request, reply, dash);
  return page(ctx, {
    title: 'Sign in',
    notice: state.notice ? { kind: 'error', text: state.notice } : null,
    body: html`<form method="post" action="/sign-in" class="card narrow">
        ${csrfField(ctx)}<input type="hidden" name="next" value="${state.next ?? ''}" />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="${state.email}" />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      ${dash.signupEnabled ? html`<p>New here? <a href="/sign-up">Create an account</a>.</p>` : html`<p>Accounts are created by the operator of this service.</p>`}`,
  });
}

function signUpPage(request: FastifyRequest, reply: FastifyReply, dash: Dashboard, state: FormState) {
  const ctx = pageContext(request, reply, dash);
  const errs = state.errors;
  return page(ctx, {
    title: 'Create an account',
    notice: state.notice ? { kind: 'error', text: state.notice } : null,
    body: html`<p>
        Free plan: 50 credits a month, enough for 10 screenshot sets. No email is sent; you sign in with this address and password.
      </p>
      <form method="post" action="/sign-up" class="card narrow" novalidate>
        ${csrfField(ctx)}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="${state.email}" ${describedBy(errs, 'email')} />
        ${fieldError(errs, 'email')}
        <label for="password">Password</label>
        <p class="hint" id="password-hint">At least ${PASSWORD_MIN} characters.</p>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="${PASSWORD_MIN}"
          aria-describedby="password-hint${errs.some((e) => e.field === 'password') ? ' password-error' : ''}"
          ${errs.some((e) => e.field === 'password') ? html` aria-invalid="true"` : ''}
        />
        ${fieldError(errs, 'password')}
        <button type="submit">Create account</button>
      </form>
      <p>Already have an account? <a href="/sign-in">Sign in</a>.</p>`,
  });
}

export function authPages(app: FastifyInstance, dash: Dashboard): void {
  const { db, clock } = dash.services;

  app.get('/', async (request, reply) => seeOther(reply, request.dashboardSession ? '/keys' : '/sign-in'));

  app.get('/sign-in', async (request, reply) => {
    if (request.dashboardSession) return seeOther(reply, '/keys');
    const next = (request.query as Record<string, string | undefined>).next ?? '';
    return sendPage(reply, signInPage(request, reply, dash, { email: '', errors: [], next }));
  });

  app.post('/sign-in', async (request, reply) => {
    const email = field(request.body, 'email').trim();
    const password = field(request.body, 'password');
    const next = field(request.body, 'next');
    const outcome = await signIn(db, { email, password, address: request.ip, previousToken: request.cookies[dash.names.session] }, clock());
    if (!outcome.ok) {
      const throttled = outcome.reason === 'throttled';
      if (throttled) reply.header('retry-after', String(outcome.retryAfterSeconds));
      const notice = throttled
        ? `Too many failed sign-ins. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minute(s).`
        : 'That email and password do not match an account.';
      return sendPage(reply, signInPage(request, reply, dash, { email, errors: [], notice, next }), throttled ? 429 : 401);
    }
    setSessionCookie(reply, dash.names, outcome.token, outcome.expiresAt);
    return seeOther(reply, safeNext(next));
  });

  app.get('/sign-up', async (request, reply) => {
    if (!dash.signupEnabled) throw notFound();
    if (request.dashboardSession) return seeOther(reply, '/keys');
    return sendPage(reply, signUpPage(request, reply, dash, { email: '', errors: [] }));
  });

  app.post('/sign-up', async (request, reply) => {
    if (!dash.signupEnabled) throw notFound();
    const email = field(request.body, 'email').trim();
    const password = field(request.body, 'password');
    const wait = await countAttempt(db, [{ subject: `signup:${request.ip}`, limit: SIGNUPS_PER_ADDRESS_PER_HOUR }], clock(), 3600_000);
    if (wait > 0)
      throw new PageError(429, 'Too many sign-ups', 'Too many accounts were created from your address. Try again later.', {
        'retry-after': String(wait),
      });
    let user;
    try {
      user = await signUp(db, { email, password });
    } catch (e) {
      if (!isProblem(e) || e.code !== 'validation_failed') throw e;
      const errors = (e.extensions.errors as FieldError[] | undefined) ?? [];
      return sendPage(reply, signUpPage(request, reply, dash, { email, errors, notice: 'Please correct the fields below.' }), 400);
    }
    const { token, session } = await createSession(db, user.id, clock(), request.cookies[dash.names.session]);
    setSessionCookie(reply, dash.names, token, session.expiresAt);
    return seeOther(reply, '/keys?welcome=1');
  });

  app.post('/sign-out', async (request, reply) => {
    const token = request.cookies[dash.names.session];
    if (token) await deleteSession(db, token);
    clearSessionCookie(reply, dash.names);
    return seeOther(reply, '/sign-in');
  });
}
