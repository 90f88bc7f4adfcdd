from django.contrib import admin

from .models import Block, Follow


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin[Follow]):
    list_display = ("follower", "followed", "created")
    raw_id_fields = ("follower", "followed")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin[Block]):
    list_display = ("blocker", "blocked", "created")
    raw_id_fields = ("blocker", "blocked")
