import { getRuntimeConfig } from '@finishline/shared';
import { LegalPage, type LegalSection } from './LegalPage';

function sections(supportEmail: string): LegalSection[] {
  return [
    {
      heading: 'Who we are',
      paragraphs: [
        'Finishline sells photos and videos taken at races and sports events in India, as digital downloads, prints and collages. By using the site or placing an order you accept these terms.',
      ],
    },
    {
      heading: 'Finding your photos',
      paragraphs: [
        'Photos are found by BIB number, by a selfie for events that offer it, or by browsing an event’s unlabeled photos. Recognition is automatic and may miss or wrongly tag a photo; report such photos with Not Me or Hide.',
        'Search results and their preview links are valid for a limited session; after it expires, search again.',
        'Events may turn on a privacy check, in which case the photos of a BIB are shown only after the one-time password mailed to the registered participant is entered.',
      ],
    },
    {
      heading: 'Prices and GST',
      paragraphs: [
        'Prices are in Indian rupees. 18% GST applies and is shown in your bill; amounts are rounded to the nearest rupee. The copy price is ₹100 for one photo, ₹50 for each extra photo and ₹500 for 5 or more photos, plus GST; packages, videos, prints and collages are priced as shown at checkout.',
        'The amount you pay is calculated by our server from your cart at the time of the order. Sponsor discounts apply only as offered and up to their stated number of photos.',
      ],
    },
    {
      heading: 'Orders',
      paragraphs: [
        'One order holds images for a single BIB only. Payment is taken by our card payment provider; an order is confirmed only when the provider confirms the payment.',
        'Orders can be placed as a guest or with an account. Orders are shown only to the account whose email matches the order email, or through the pre-authorised link we mail you.',
      ],
    },
    {
      heading: 'Digital downloads',
      paragraphs: [
        'Downloads are high-resolution photos of about 2 MB to 6 MB with the event overlay. They are available for 30 days after purchase; please keep your own copy.',
        'Photos are for your personal use. You may share them on social media; you may not resell them or remove the event overlay.',
      ],
    },
    {
      heading: 'Prints and collages',
      paragraphs: [
        'Prints are delivered only within India and are offered to customers with the +91 country code, for events that allow prints. Prices include shipping and prints arrive within 2 weeks.',
        'A journey-map collage uses 3 to 5 of your photos and is printed portrait 2ft x 3ft or landscape 3ft x 2ft.',
      ],
    },
    {
      heading: 'Pre-orders',
      paragraphs: [
        'For upcoming events you may pre-order photos at the pre-order price. After the event you map the order to your BIB with the order ID, email and phone of the order; a mapping is final once submitted and cannot be corrected afterwards.',
      ],
    },
    {
      heading: 'Refunds and replacements',
      paragraphs: [
        'Digital downloads are non-refundable once the order is paid. Other refunds are processed within 12 to 15 business days. For a damaged or faulty print, mail a replacement request within 7 days of delivery.',
      ],
    },
    {
      heading: 'Photographers and organisers',
      paragraphs: [
        'Photographer partners register per event with their bank and tax details, deliver JPG photos of 3-4 MB and do not share event photos elsewhere for 30 days after the event. Organisers see revenue and analytics for their own events only.',
      ],
    },
    {
      heading: 'Contact',
      paragraphs: [`Questions about these terms: ${supportEmail}. Our support team replies within 48 hours.`],
    },
  ];
}

export function TermsPage() {
  const { supportEmail } = getRuntimeConfig();
  return (
    <LegalPage
      title="Terms and Conditions"
      intro="These terms explain how buying race photos from Finishline works: what you pay, what you receive and what you can expect from us."
      sections={sections(supportEmail)}
    />
  );
}
