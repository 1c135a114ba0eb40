import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { App as AntdApp } from 'antd';
import { STORAGE_KEYS } from '@finishline/shared';
import { ChangePasswordPage } from './ChangePasswordPage';

const STRONG_RULE = 'Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.';

function renderPage() {
  return render(
    <AntdApp>
      <MemoryRouter initialEntries={['/change-password']}>
        <Routes>
          <Route path="/change-password" element={<ChangePasswordPage />} />
          <Route path="/sign-in" element={<p>sign-in page</p>} />
        </Routes>
      </MemoryRouter>
    </AntdApp>,
  );
}

describe('change password page', () => {
  beforeEach(() => localStorage.clear());

  it('sends a signed-out visitor to sign in', async () => {
    renderPage();
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
  });

  it("keeps Submit disabled until the form is changed and valid, with the spec's messages", async () => {
    localStorage.setItem(STORAGE_KEYS.isSignedIn, 'true');
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'token');
    localStorage.setItem(STORAGE_KEYS.userId, '7');
    const user = userEvent.setup();
    renderPage();
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();

    await user.type(screen.getByLabelText('Old password'), 'oldpass12');
    await user.type(screen.getByLabelText('New password'), 'weakpass1');
    await user.click(screen.getByLabelText('Confirm password'));
    expect(await screen.findByText(STRONG_RULE)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Confirm password'), 'Other2027');
    await user.tab();
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'Other2027');
    await user.tab();
    expect(screen.queryByText(STRONG_RULE)).not.toBeInTheDocument();
    expect(screen.queryByText('Passwords must match')).not.toBeInTheDocument();
    expect(submit).toBeEnabled();
  });
});
