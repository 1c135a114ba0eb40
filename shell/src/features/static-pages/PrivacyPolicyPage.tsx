import { getRuntimeConfig } from '@finishline/shared';
import { LegalPage, type LegalSection } from './LegalPage';

function sections(supportEmail: string): LegalSection[] {
  return [
    {
      heading: 'What we collect',
      paragraphs: [
        'Account details you give us: first and last name, email, phone number with its country code, and for checkout your gender, shipping address and pin code. Passwords are stored only as a one-way hash.',
        'Order details: the event, BIB number, the photos and products you bought, the amounts and the payment reference from our payment provider. We never receive your card details.',
        'Messages you send through the contact form, and the address of your connection, used to stop abuse.',
      ],
    },
    {
      heading: 'Photos and selfies',
      paragraphs: [
        'Event photos are taken by our photographer partners at public events and tagged with the BIB numbers visible in them.',
        'A selfie you upload for selfie search is used once to find matching photos and is discarded straight away; we do not store it.',
        'Where an event enables the privacy check, photos of a BIB are shown only after the one-time password mailed to the registered participant is verified.',
      ],
    },
    {
      heading: 'How we use your data',
      paragraphs: [
        'To show you your photos, process and deliver your orders, mail order confirmations, download links, one-time passwords and passcodes, answer your questions, and keep the site secure (for example, by limiting repeated sign-in attempts).',
        'Organisers see totals of orders and revenue for their events; photographer partners see their share. Neither receives your payment details.',
      ],
    },
    {
      heading: 'Cookies and local storage',
      paragraphs: [
        'We store a few values in your browser to keep you signed in, remember your cart, your chosen event and your consent to cookies. We use no advertising trackers.',
      ],
    },
    {
      heading: 'Sharing',
      paragraphs: [
        'We share data only with the services that run the shop: the payment provider for payments, the mail service for our mails and the print partner for deliveries within India. We do not sell personal data.',
      ],
    },
    {
      heading: 'How long we keep data',
      paragraphs: [
        'Purchased downloads stay available for 30 days. Order records are kept as long as tax law requires. You may ask us to delete your account at any time.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [`You may ask to see, correct or delete your personal data by writing to ${supportEmail}. We reply within 48 hours.`],
    },
  ];
}

export function PrivacyPolicyPage() {
  const { supportEmail } = getRuntimeConfig();
  return (
    <LegalPage
      title="Privacy Policy"
      effective="15 July 2021"
      intro="This policy explains what personal data Finishline collects when you find and buy race photos, why, and the choices you have."
      sections={sections(supportEmail)}
    />
  );
}
