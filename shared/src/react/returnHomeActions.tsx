import { Button } from 'antd';

/**
 * The buttons under an order page's message: back to the shop, and for a guest the way to sign in and
 * see their order history.
 */
export function returnHomeActions(signedIn: boolean, navigate: (path: string) => void) {
  return [
    <Button key="home" type="primary" onClick={() => navigate('/')}>
      Return to homepage
    </Button>,
    signedIn ? null : (
      <Button key="login" onClick={() => navigate('/sign-in')}>
        Login for order history
      </Button>
    ),
  ];
}
