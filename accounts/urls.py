from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("me/", views.me, name="me"),
    path("me/name/", views.change_name, name="name"),
    path("me/delete/", views.delete_account, name="delete"),
    path("me/chat-text/", views.chat_text, name="chat_text"),
    path("me/blind-mode/", views.blind_mode, name="blind_mode"),
]
