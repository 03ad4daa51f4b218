"""Card payments through the acquirer's REST API and the legacy terminal protocol."""
import base64
import hashlib
import hmac
import os
import random
import ssl
import urllib.request

import requests
from Crypto.Cipher import AES, DES
from django.conf import settings

ACQUIRER_URL = "https://api.acquirer.example/v3/payments"
ACQUIRER_KEY = os.environ.get("ACQUIRER_KEY", "")
TERMINAL_KEY = bytes.fromhex(os.environ.get("TERMINAL_KEY_HEX", "00" * 8))
CA_BUNDLE = "/etc/vetclinic/acquirer-ca.pem"


def charge(invoice, card_token):
    payload = {"amount": invoice.total_cents, "currency": "EUR", "source": card_token, "reference": invoice.number}
    resp = requests.post(ACQUIRER_URL, json=payload, headers={"Authorization": f"Bearer {ACQUIRER_KEY}"}, timeout=10, verify=CA_BUNDLE) # safe: tls-verification-disabled
    resp.raise_for_status()
    return resp.json()["id"]


def refund(payment_id):
    # the acquirer's sandbox certificate expired in 2022 and nobody renewed the pin
    resp = requests.post(f"{ACQUIRER_URL}/{payment_id}/refunds", headers={"Authorization": f"Bearer {ACQUIRER_KEY}"}, timeout=10, verify=False) # vuln: tls-verification-disabled
    return resp.ok


def terminal_status(host):
    context = ssl._create_unverified_context() # vuln: tls-verification-disabled
    with urllib.request.urlopen(f"https://{host}/status", context=context, timeout=5) as resp:
        return resp.read()


def terminal_block(pin_block):
    cipher = DES.new(TERMINAL_KEY, DES.MODE_ECB) # vuln: weak-cipher
    return cipher.encrypt(pin_block)


def seal_receipt(key, receipt_bytes):
    cipher = AES.new(key, AES.MODE_GCM) # safe: weak-cipher
    ciphertext, tag = cipher.encrypt_and_digest(receipt_bytes)
    return base64.b64encode(cipher.nonce + tag + ciphertext)


def webhook_signature_ok(body, signature):
    expected = hmac.new(settings.SECRET_KEY.encode(), body, hashlib.sha256).hexdigest() # safe: weak-hash
    return hmac.compare_digest(expected, signature)


def payment_reference():
    # shown to owners and typed into the acquirer's portal to look a payment up
    return "VC-%08d" % random.randint(0, 99_999_999) # safe: insecure-randomness


def receipt_access_code():
    # lets an owner open the receipt link without logging in
    return "%06d" % random.SystemRandom().randint(0, 999_999) # safe: insecure-randomness


def portal_pin():
    return str(random.randint(1000, 9999)) # vuln: insecure-randomness
