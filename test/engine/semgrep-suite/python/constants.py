import os

import requests
import stripe

STRIPE_KEY = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
VERIFY = False


def configure(environment):
    # ruleid: python-hardcoded-api-key
    stripe.api_key = STRIPE_KEY
    local_key = "sk_test_local"
    if environment == "dev":
        # ruleid: python-hardcoded-api-key
        stripe.api_key = local_key
    # ok: python-hardcoded-api-key
    stripe.api_key = os.environ["STRIPE_KEY"]


def ping(url):
    # ruleid: python-verify-disabled-by-constant
    return requests.get(url, verify=VERIFY)
