/** The 23 questions a runner asks of the shop, answered from the shop's business rules. */
export const FAQS: ReadonlyArray<{ question: string; answer: string }> = [
  {
    question: 'How do I find my race photos?',
    answer:
      'Choose your event on the home page and type your BIB number (for example TT20608), then press Find My Photos or Enter. Every photo in which your BIB was recognised is shown on the next page.',
  },
  {
    question: 'Can I find my photos without my BIB number?',
    answer:
      'Yes, for events with selfie search: choose Search by Selfie, take or upload a clear photo of your face (JPG or PNG, up to 2 MB) and we show the photos you appear in. Many events also offer Unlabeled Photos, where you can browse the pictures in which no BIB could be read.',
  },
  {
    question: 'Do you keep my selfie?',
    answer: 'No. Your selfie is used only to match your face against the event photos and is discarded straight after the search.',
  },
  {
    question: 'How much do photos cost?',
    answer:
      'One photo costs ₹100, each extra photo ₹50, and 5 or more photos of your BIB cost ₹500 in all. Packages, videos, prints and collages are priced on the event page and in your cart.',
  },
  {
    question: 'Is GST included?',
    answer:
      'Prices are in Indian rupees and 18% GST applies. Your cart and bill summary show the GST amount and the total you pay, rounded to the nearest rupee.',
  },
  {
    question: 'What are the Premium and Ultra Premium packages?',
    answer:
      'When you pick enough photos of your BIB, a package can replace the single downloads: Premium gives all your photos at a bundle price, and Ultra Premium adds timed photos and certificates, found in the "certs" folder of the downloaded zip file.',
  },
  {
    question: 'What prints can I order?',
    answer:
      'A fridge magnet (4x6 inches), a frame (10x10 inches), a coffee mug and a wall poster (13x10 inches), plus a journey-map collage print (portrait 2ft x 3ft or landscape 3ft x 2ft, made from 3 to 5 photos). Print prices include shipping.',
  },
  {
    question: 'Do you deliver prints outside India?',
    answer:
      'No. Prints are delivered only to addresses in India, so they are offered to customers with the +91 country code. Digital downloads work everywhere.',
  },
  {
    question: 'How long does print delivery take?',
    answer: 'Prints are delivered within 2 weeks of your order.',
  },
  {
    question: 'Why can I not order prints for my event?',
    answer: 'Some events do not allow prints or collages; for those only digital downloads are offered.',
  },
  {
    question: 'How do I download my photos after paying?',
    answer:
      'Straight after payment you reach the Order Status page, and we mail a confirmation with a download link to the email of your order. Signed-in customers can also open the order from Orders History.',
  },
  {
    question: 'How long can I download my photos?',
    answer: 'Downloads are available for 30 days after your purchase. Please save your photos on your device within that time.',
  },
  {
    question: 'What quality are the downloads?',
    answer: 'You receive high-resolution photos of 2 MB to 6 MB each, with the event overlay. Previews on the site are smaller and watermarked.',
  },
  {
    question: 'Can I buy photos of several BIBs in one order?',
    answer: 'One order holds images for a single BIB only. Place a separate order for each BIB.',
  },
  {
    question: 'Do I need an account to buy?',
    answer:
      'No. You can check out as a guest with your name, email and phone. With an account you get your order history, a checkout form filled in for you and can view your orders at any time.',
  },
  {
    question: 'How do I pay?',
    answer: 'Checkout takes you to our card payment provider, where you pay by card, UPI or net banking. We never see or store your card details.',
  },
  {
    question: 'Can I get a refund?',
    answer:
      'Digital downloads are non-refundable. Other refunds, such as for prints, are processed within 12 to 15 business days. If a print arrives damaged, mail us a replacement request within 7 days of delivery.',
  },
  {
    question: 'What is a pre-order?',
    answer:
      'For upcoming races you can pre-order your photos at a lower price before race day. After the race, open Pre-Booked Photos on the home page, enter your order ID and BIB number, and we link your order to your photos and send you the download link. A mapping cannot be changed once submitted, so check the BIB carefully.',
  },
  {
    question: 'Why am I asked for an OTP before I see my photos?',
    answer:
      'Some events turn on a privacy check: the photos of a BIB are shown only after you enter the one-time password mailed to the participant registered with that BIB. This keeps your photos private to you.',
  },
  {
    question: 'A photo is not of me. What can I do?',
    answer: 'Use Report picture(s) on the photo page, select the photos and choose Not Me or Hide. You need to be signed in to report photos.',
  },
  {
    question: 'Can I get an achievement certificate?',
    answer:
      'Eligible runners see a Generate Certificate button on the photo page. Choose one photo per event and we compose them into a certificate you can download.',
  },
  {
    question: 'My search session expired. What now?',
    answer: 'Photo links are valid for a limited time. Go back to the home page and search for your BIB again to get fresh links; your cart is kept.',
  },
  {
    question: 'How do I reach support?',
    answer: 'Use the Contact Us page, WhatsApp or mail. Our support team replies within 48 hours.',
  },
];
