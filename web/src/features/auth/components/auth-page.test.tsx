import { screen } from '@testing-library/react';
import { getSession } from '@/api/session';
import { appRoutes, makeAuth, makeConfig, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp } from '@/test/render';
import { initialAuthTab, SIGN_UP_CLOSED } from './auth-page';

describe('sign-in / sign-up page', () => {
  it('starts on sign-up when the address contains "signup", otherwise on sign-in', () => {
    expect(initialAuthTab('/signup')).toBe('signUp');
    expect(initialAuthTab('/', '?mode=signup')).toBe('signUp');
    expect(initialAuthTab('/budgets')).toBe('signIn');
  });

  it('is shown for any route when not signed in, with the support link', async () => {
    mockApi({ 'GET /v1/auth/config': { body: makeConfig() } });
    renderApp('/budgets');
    expect(await screen.findByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'support@costscope.test' })).toHaveAttribute('href', 'mailto:support@costscope.test');
    expect(screen.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', 'https://docs.costscope.test');
    expect(screen.getByRole('link', { name: 'Costscope home' })).toHaveAttribute('href', '/');
  });

  it('opens the Create Account tab on /signup with the three fields and placeholders', async () => {
    mockApi({ 'GET /v1/auth/config': { body: makeConfig() } });
    renderApp('/signup');
    expect(await screen.findByRole('tab', { name: 'Create Account', selected: true })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('placeholder', 'Enter name');
    expect(screen.getByLabelText('Email')).toHaveAttribute('placeholder', 'Enter your email address');
    expect(screen.getByLabelText('Password')).toHaveAttribute('placeholder', 'Enter your password');
  });

  it('says sign-up is closed, instead of the form, when the server does not allow it', async () => {
    const { calls } = mockApi({ 'GET /v1/auth/config': { body: { ...makeConfig(), allow_signup: false } } });
    renderApp('/signup');
    expect(await screen.findByRole('tab', { name: 'Create Account', selected: true })).toBeInTheDocument();
    expect(screen.getByText(SIGN_UP_CLOSED)).toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/v1/auth/signup')).toHaveLength(0);
  });

  it('validates the sign-up form with the server\'s messages', async () => {
    const { calls } = mockApi({ 'GET /v1/auth/config': { body: makeConfig() } });
    const { user } = renderApp('/signup');
    await user.click(await screen.findByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/v1/auth/signup')).toHaveLength(0);
  });

  it('validates the sign-in form', async () => {
    mockApi({ 'GET /v1/auth/config': { body: makeConfig() } });
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('shows "Incorrect email or password" from the server and stays signed out', async () => {
    mockApi({
      'GET /v1/auth/config': { body: makeConfig() },
      'POST /v1/auth/login': { status: 401, body: { message: 'Incorrect email or password' } },
    });
    const { user } = renderApp('/');
    await user.type(await screen.findByLabelText('Email'), 'olivia@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect email or password')).toBeInTheDocument();
    expect(getSession()).toBeNull();
  });

  it('shows the server message of a failed sign-up', async () => {
    mockApi({
      'GET /v1/auth/config': { body: makeConfig() },
      'POST /v1/auth/signup': { status: 409, body: { message: 'User ann@example.com already exists' } },
    });
    const { user } = renderApp('/signup');
    await user.type(await screen.findByLabelText('Name'), 'Ann Lee');
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('User ann@example.com already exists')).toBeInTheDocument();
  });

  it('signs in and shows the route that was asked for', async () => {
    const me = makeUser();
    const { callsTo } = mockApi({ ...appRoutes({ me }), 'POST /v1/auth/login': { body: makeAuth(me) } });
    const { user } = renderApp('/settings/users');
    await user.type(await screen.findByLabelText('Email'), 'olivia@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    expect(callsTo('POST', '/v1/auth/login')[0].body).toEqual({ email: 'olivia@example.com', password: 'correct-horse' });
    expect(getSession()?.accessToken).toBe('access-1');
  });

  it('signs up from /signup and lands on the welcome page at /', async () => {
    const me = makeUser({ name: 'Ann Lee', email: 'ann@example.com' });
    const { callsTo } = mockApi({ ...appRoutes({ me }), 'POST /v1/auth/signup': { status: 201, body: makeAuth(me) } });
    const { user } = renderApp('/signup');
    await user.type(await screen.findByLabelText('Name'), 'Ann Lee');
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('button', { name: 'Connect Accounts' })).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(callsTo('POST', '/v1/auth/signup')[0].body).toEqual({ name: 'Ann Lee', email: 'ann@example.com', password: 'password123' });
  });
});
