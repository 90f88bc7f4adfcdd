from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from allauth.account.signals import user_signed_up
        from django.contrib.auth.signals import user_logged_in

        from accounts import blind_mode

        user_logged_in.connect(blind_mode.carry, dispatch_uid="accounts.blind_mode.logged_in")
        user_signed_up.connect(blind_mode.carry, dispatch_uid="accounts.blind_mode.signed_up")
