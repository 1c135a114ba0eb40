import { render, screen } from '@testing-library/react';
import { App, theme } from 'antd';
import { AntdRoot, finishlineTheme } from '@finishline/shared/react';

/** Reads what a component inside gets from antd's contexts. */
function Probe() {
  const { message } = App.useApp();
  const { token } = theme.useToken();
  return <p data-testid="probe" data-primary={token.colorPrimary} data-message={typeof message?.success} />;
}

describe('AntdRoot (each deployment renders its own antd providers)', () => {
  it('gives the theme and App.useApp() to what is inside', () => {
    render(
      <AntdRoot>
        <Probe />
      </AntdRoot>,
    );
    const probe = screen.getByTestId('probe');
    expect(probe.dataset.primary).toBe(finishlineTheme.token.colorPrimary);
    expect(probe.dataset.message).toBe('function');
    expect(probe.closest('.ant-app')).not.toBeNull();
  });

  it('as a remote inside the shell (component false) adds no element', () => {
    const { container } = render(
      <AntdRoot component={false}>
        <Probe />
      </AntdRoot>,
    );
    expect(container.firstElementChild).toBe(screen.getByTestId('probe'));
    expect(screen.getByTestId('probe').dataset.message).toBe('function');
  });

  it('inside another AntdRoot of the same copy (a remote in its standalone harness) adds nothing', () => {
    const { container } = render(
      <AntdRoot>
        <AntdRoot>
          <Probe />
        </AntdRoot>
      </AntdRoot>,
    );
    expect(container.querySelectorAll('.ant-app')).toHaveLength(1);
    expect(screen.getByTestId('probe').dataset.primary).toBe(finishlineTheme.token.colorPrimary);
  });
});
